import type { DbOrTx } from "@/lib/db/client";
import { speakerName, type SpeakerAccount } from "@/lib/record-model/evidence-level-text";
import { moverKind } from "@/lib/record-model/standing-actor";
import { latestProvenEntry } from "@/lib/tlog/store";
import { getPublicRecord } from "@/lib/record-model/get-record";
import { getPublicView, type PublicView } from "./public-view";

/**
 * Whether search engines may index a certificate, from the one trust decision: only a public
 * record the decision calls verified now (live, checked, standing — every part too). Sandbox,
 * private, only-stated, suspended, revoked, expired or superseded records, and records whose
 * parts lapsed, carry noindex: a results page showing a certificate is a public answer too.
 */
export const isIndexable = (view: Pick<PublicView, "row" | "trust">) => view.row.visibility === "public" && view.trust.verified;

/**
 * Everything the certificate page (app/r/[id]) shows, decided here so the page only renders:
 * the public view, when, by whom and why it was suspended or revoked (whoActed), its latest transparency-log entry (live records only; sandbox records are
 * not logged) and, for a replaced record, its successor — linked (`id`) only while that is
 * itself a public, issued record of the same environment, else `id: null` ("not public").
 */
export async function getCertificate(db: DbOrTx, id: string) {
  const view = await getPublicView(db, id);
  if (!view) return null;
  const { row } = view;
  const [logEntry, successor] = await Promise.all([
    row.environment === "live" ? latestProvenEntry(db, row.id) : null,
    row.supersededBy ? getPublicRecord(db, row.supersededBy) : null,
  ]);
  const replacedBy = row.supersededBy
    ? { id: successor && successor.visibility === "public" && successor.environment === row.environment ? successor.id : null }
    : null;
  return { view, logEntry, replacedBy, actedBy: whoActed(view.status, view.history.at(-1), view.account) };
}

/**
 * When, by whom and why the record came to be suspended or revoked (CONTRACT "What still
 * stands"), for the top of its certificate: `text` says who — "Suspended by Proof Records:
 * ‹reason›" for a staff action, the system's own reason (a re-check, a lapsed part) for a
 * system move, and the issuing account (named as every public answer names it: a verified
 * organisation's legal name, else its own word) when its owner did it. `at` is when. Null for
 * any other status, or when the history's last entry is not the move into it.
 */
export function whoActed(
  status: string,
  last: { status: string; by: string; reason: string | null; at: Date } | undefined,
  account: SpeakerAccount = { name: null },
): { text: string; at: Date; by: "staff" | "system" | "owner" } | null {
  if (!last || last.status !== status || (status !== "suspended" && status !== "revoked")) return null;
  const verb = status === "suspended" ? "Suspended" : "Revoked";
  const why = last.reason ?? "no reason given";
  const by = moverKind(last.by);
  const text = by === "staff" ? `${verb} by Proof Records: ${why}`
    : by === "system" ? `${verb} automatically by Proof Records' checks: ${why}`
    : `${verb} by the account that issued it, ${speakerName(account)}: ${why}`;
  return { text, at: last.at, by };
}
