import type { DbOrTx } from "@/lib/db/client";
import { latestProvenEntry } from "@/lib/tlog/store";
import { getPublicRecord } from "./get-record";
import { getPublicView } from "./public-view";
import type { RecordRow } from "./serialize-record";

/**
 * Only a live, public record that something was checked for may be indexed: sandbox,
 * private and participant-attested pages carry noindex.
 */
export const isIndexable = (row: Pick<RecordRow, "environment" | "visibility" | "evidenceLevel">) =>
  !(row.environment === "sandbox" || row.visibility === "private" || row.evidenceLevel === "participant_attested");

/** What the certificate page's head says: the record's id and subject, and whether it may be indexed. Null: no issued record. */
export async function getCertificateHead(db: DbOrTx, id: string) {
  const row = await getPublicRecord(db, id);
  return row ? { id: row.id, subject: row.subject, indexable: isIndexable(row) } : null;
}

/**
 * Everything the certificate page (app/r/[id]) shows, decided here so the page only renders:
 * the public view, who put it in its status when that was not its owner (whoActed), its latest transparency-log entry (live records only; sandbox records are
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
  return { view, logEntry, replacedBy, actedBy: whoActed(view.status, view.history.at(-1)) };
}

/**
 * Who put the record in its status, when it was not its owner (CONTRACT "What still stands"):
 * "Suspended by Proof Records: ‹reason›" for a staff action; the system's own reason (a re-check,
 * a lapsed part, named) for a system move.
 */
export function whoActed(status: string, last: { status: string; by: string; reason: string | null } | undefined): string | null {
  if (!last || last.status !== status || (status !== "suspended" && status !== "revoked")) return null;
  const verb = status === "suspended" ? "Suspended" : "Revoked";
  if (last.by === "staff" || last.by === "reviewer") return `${verb} by Proof Records: ${last.reason ?? "no reason given"}`;
  if (last.by === "system") return `${verb} automatically by Proof Records' checks: ${last.reason ?? "no reason given"}`;
  return null;
}
