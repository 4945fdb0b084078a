import { and, asc, eq, gt, inArray, notExists, sql } from "drizzle-orm";
import { records, recordValues } from "@/drizzle/schema";
import { claimModuleFor, lookupClaimTypes } from "@/lib/claims/registry";
import type { DbOrTx } from "@/lib/db/client";
import { normalizedValue, type LookupKind } from "@/lib/format/normalize";

type RecordRow = typeof records.$inferSelect;
export type RecordValueRow = { recordId: string; kind: LookupKind; value: string; field: string };
type Source = Pick<RecordRow, "id" | "claimType" | "subject" | "evidencePublic" | "environment" | "visibility">;

/**
 * The rows of record_values for a record: the values its claim type declares
 * (`view.lookupValues`), each in its kind's normal form, once; a declared value that is not one
 * of its kind is left out. None for sandbox and private records: no lookup may find them.
 */
export function recordValuesOf(row: Source): RecordValueRow[] {
  if (row.environment !== "live" || row.visibility !== "public") return [];
  const declared = claimModuleFor(row.claimType).view?.lookupValues?.(row.subject, row.evidencePublic) ?? [];
  const out = new Map<string, RecordValueRow>();
  for (const d of declared) {
    const value = normalizedValue(d.kind, d.value);
    if (value && !out.has(`${d.kind} ${value}`)) out.set(`${d.kind} ${value}`, { recordId: row.id, kind: d.kind, value, field: d.field });
  }
  return [...out.values()];
}

/** Write a record's values again (`recordValuesOf` what it holds now: a submission issued with the evidence its review settled on). */
export async function replaceRecordValues(tx: DbOrTx, recordId: string, values: RecordValueRow[]): Promise<void> {
  await tx.delete(recordValues).where(eq(recordValues.recordId, recordId));
  if (values.length) await tx.insert(recordValues).values(values).onConflictDoNothing();
}

/**
 * Records issued before record_values existed (or before their type declared values) have
 * none: fill them in, `batch` records at a time, in one pass by id. Idempotent and safe to
 * run from several processes at once (a value already written is skipped). Returns how many
 * values it wrote.
 */
export async function backfillRecordValues(db: DbOrTx, batch = 500): Promise<number> {
  const types = lookupClaimTypes();
  if (types.length === 0) return 0;
  let after = "";
  let written = 0;
  for (;;) {
    const rows = await db
      .select({
        id: records.id, claimType: records.claimType, subject: records.subject, evidencePublic: records.evidencePublic,
        environment: records.environment, visibility: records.visibility,
      })
      .from(records)
      .where(and(
        eq(records.environment, "live"), eq(records.visibility, "public"), inArray(records.claimType, types), gt(records.id, after),
        notExists(db.select({ one: sql`1` }).from(recordValues).where(eq(recordValues.recordId, records.id))),
      ))
      .orderBy(asc(records.id))
      .limit(batch);
    const values = rows.flatMap(recordValuesOf);
    if (values.length) {
      written += (await db.insert(recordValues).values(values).onConflictDoNothing().returning({ id: recordValues.recordId })).length;
    }
    if (rows.length < batch) return written;
    after = rows.at(-1)!.id;
  }
}
