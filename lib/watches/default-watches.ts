import { and, eq, gt, inArray, isNull, or, sql } from "drizzle-orm";
import { organisations, records, watches } from "@/drizzle/schema";
import { accountDomainClaimTypes, provesAccountDomain } from "@/lib/claims/registry";
import type { DbOrTx } from "@/lib/db/client";
import { newWatchId } from "@/lib/ids";
import { watchLookalikeKeys } from "./lookalike";
import { WATCH_LIMIT, watchValue, type WatchKind } from "./watch-value";

/**
 * Default watches (origin `default`) for a verified organisation: its legal name, its LEI and
 * the domains the account proves (active live records of a type that `capabilities.proves` "account_domain"),
 * added in the transaction that verifies it; a value it already watches is left as it is, and
 * nothing is added past the account's limit. The owner deletes them like any other. They fire
 * for records issued afterwards (no mail or event for what existed before).
 */
export async function addDefaultWatches(
  tx: DbOrTx, accountId: string, o: { legalName: string; lei: string | null; domains?: readonly string[] }, at = new Date(),
): Promise<void> {
  const types = accountDomainClaimTypes();
  const proved = types.length === 0 ? [] : await tx
    .selectDistinct({ domain: records.subject })
    .from(records)
    .where(and(
      eq(records.accountId, accountId), eq(records.environment, "live"), inArray(records.claimType, types),
      eq(records.status, "active"), or(isNull(records.expiresAt), gt(records.expiresAt, at)),
    ))
    .limit(WATCH_LIMIT);
  const wanted: { kind: WatchKind; value: string }[] = [
    { kind: "name", value: o.legalName },
    ...(o.lei ? [{ kind: "lei" as const, value: o.lei }] : []),
    ...[...new Set([...(o.domains ?? []), ...proved.map((p) => p.domain)])].map((d) => ({ kind: "domain" as const, value: d })),
  ];
  await insertDefaults(tx, accountId, wanted, at);
}

/**
 * When staff remove an organisation's verification, its default watches go with it (issue 38,
 * item 7): they watched the name, LEI and domains of an organisation the account no longer is.
 * Watches the owner made stay. A lapse (the register) keeps them: it is often an LEI renewal
 * away from ending, and what they watch is still the account's. A new verification adds
 * them again (addDefaultWatches). Answers how many went.
 */
export async function removeDefaultWatches(tx: DbOrTx, accountId: string): Promise<number> {
  const gone = await tx.delete(watches).where(and(eq(watches.accountId, accountId), eq(watches.origin, "default"))).returning({ id: watches.id });
  return gone.length;
}

async function insertDefaults(tx: DbOrTx, accountId: string, wanted: { kind: WatchKind; value: string }[], at: Date) {
  const [{ n }] = await tx.select({ n: sql<number>`count(*)::int` }).from(watches).where(eq(watches.accountId, accountId)) as [{ n: number }];
  const rows = wanted.flatMap((w) => {
    const v = watchValue(w.kind, w.value);
    return "error" in v ? [] : [{
      id: newWatchId(), accountId, kind: w.kind, value: w.value, matchKey: v.matchKey, skeleton: v.skeleton,
      lookalikeKeys: watchLookalikeKeys(w.kind, w.value), origin: "default" as const, createdAt: at,
    }];
  }).slice(0, Math.max(0, WATCH_LIMIT - n));
  if (rows.length) await tx.insert(watches).values(rows).onConflictDoNothing();
}

/**
 * A domain proved later by a verified organisation gets its default watch too: called with the
 * records just issued (create, batch, approval), in their transaction. Costs a query only when
 * one of them proves an account domain.
 */
export async function addDefaultDomainWatches(
  tx: DbOrTx, issued: readonly { row: { accountId: string; claimType: string; subject: string; environment: string; status: string } }[], at = new Date(),
): Promise<void> {
  const proving = issued.filter((r) => r.row.environment === "live" && r.row.status === "active" && provesAccountDomain(r.row.claimType));
  if (proving.length === 0) return;
  const ids = [...new Set(proving.map((r) => r.row.accountId))];
  const verified = await tx.select({ accountId: organisations.accountId }).from(organisations)
    .where(and(inArray(organisations.accountId, ids), eq(organisations.status, "verified")));
  for (const { accountId } of verified) {
    const domains = proving.filter((r) => r.row.accountId === accountId).map((r) => ({ kind: "domain" as const, value: r.row.subject }));
    await insertDefaults(tx, accountId, domains, at);
  }
}

/**
 * Name and domain watches made before look-alike keys existed (migration 0038) get them: one
 * pass at start, `batch` at a time; once done it finds nothing. Returns how many it filled.
 */
export async function backfillLookalikeKeys(db: DbOrTx, batch = 500): Promise<number> {
  let filled = 0;
  for (;;) {
    const rows = await db.select({ id: watches.id, kind: watches.kind, value: watches.value }).from(watches)
      .where(and(inArray(watches.kind, ["name", "domain"]), sql`cardinality(${watches.lookalikeKeys}) = 0`)).limit(batch);
    const keyed = rows.map((r) => ({ ...r, keys: watchLookalikeKeys(r.kind, r.value) })).filter((r) => r.keys.length > 0);
    for (const r of keyed) await db.update(watches).set({ lookalikeKeys: r.keys }).where(eq(watches.id, r.id));
    filled += keyed.length;
    if (rows.length < batch || keyed.length === 0) return filled;
  }
}
