/**
 * How every page shows an instant: in UTC, to the minute — "2026-11-26 00:55 UTC" — or to the
 * second where an exact moment matters (a record's own page), or its day. Takes a Date or an
 * ISO 8601 string (as API answers carry them); a string that is not a date is shown as it is,
 * and no instant at all as "—". Pure, so client components use it too. (The embed badge shows
 * the reader's local time on purpose and has its own: lib/public/embed/badge.ts.)
 */
type At = Date | string | null | undefined;

const NONE = "—";

function isoOf(at: Date | string): string | null {
  const t = typeof at === "string" ? Date.parse(at) : at.getTime();
  return Number.isNaN(t) ? null : new Date(t).toISOString();
}

/** "2026-11-26 00:55 UTC"; with `seconds`, "2026-11-26 00:55:12 UTC". */
export function formatUtc(at: At, precision: "minutes" | "seconds" = "minutes"): string {
  if (at === null || at === undefined) return NONE;
  const iso = isoOf(at);
  if (!iso) return String(at);
  return `${iso.slice(0, precision === "seconds" ? 19 : 16).replace("T", " ")} UTC`;
}

/** "2026-11-26": the day of an instant, in UTC. */
export function formatUtcDay(at: At): string {
  if (at === null || at === undefined) return NONE;
  return isoOf(at)?.slice(0, 10) ?? String(at);
}
