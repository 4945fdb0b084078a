import { RECORD_ID_RE } from "@/lib/ids";

/**
 * The record id in what a person typed or pasted into "check a record": the id itself in
 * any case, without its "PRS-", or inside a certificate link. Letters Crockford base32
 * never uses are read as the digits they look like (I, L → 1; O → 0), as its spec asks.
 * Null when there is no well-formed id in it.
 */
export function recordIdFromInput(input: string): string | null {
  const s = input.trim().toUpperCase().slice(0, 500);
  const code = s.match(/PRS-([0-9A-Z]{20})(?![0-9A-Z])/)?.[1] ?? (/^[0-9A-Z]{20}$/.test(s) ? s : null);
  if (!code) return null;
  const id = `PRS-${code.replace(/[IL]/g, "1").replace(/O/g, "0")}`;
  return RECORD_ID_RE.test(id) ? id : null;
}
