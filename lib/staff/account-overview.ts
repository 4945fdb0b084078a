import { and, count, desc, eq, isNull } from "drizzle-orm";
import { accounts, apiKeys, organisations, planRequests, recordReports, records, webhooks } from "@/drizzle/schema";
import { keyDisplay } from "@/lib/accounts/key-display";
import { listAudit } from "@/lib/audit/staff-audit";
import type { Db } from "@/lib/db/client";
import { ACCOUNT_ID_RE } from "@/lib/ids";
import { effectiveStatus } from "@/lib/record-model/effective-status";
import { assessRisk, plainValues } from "@/lib/reviews/risk-signals";

/** How many of an account's records, reports and audit entries the console page lists (newest first). */
export const OVERVIEW_LIMIT = 200;

/**
 * Everything staff see on an account's console page (issue 39, item 3): the account, its
 * organisation, records (newest first, with their standing now), API keys, webhooks, plan
 * requests, the problems reported about its records, its risk signals and the audit trail of
 * what staff did to it.
 */
export async function accountOverview(db: Db, accountId: string, now = new Date()) {
  if (!ACCOUNT_ID_RE.test(accountId)) return null;
  const [account] = await db.select({
    id: accounts.id, email: accounts.email, name: accounts.name, role: accounts.role, plan: accounts.plan, createdAt: accounts.createdAt,
    emailConfirmedAt: accounts.emailConfirmedAt, suspendedAt: accounts.suspendedAt, suspendedReason: accounts.suspendedReason,
    renameCount: accounts.renameCount, renamedAt: accounts.renamedAt, createdBy: accounts.createdBy,
  }).from(accounts).where(eq(accounts.id, accountId));
  if (!account) return null;
  const [organisation, recordRows, recordCounts, keys, hooks, plans, reports, audit] = await Promise.all([
    db.select({ legalName: organisations.legalName, lei: organisations.lei, status: organisations.status, verifiedAt: organisations.verifiedAt })
      .from(organisations).where(eq(organisations.accountId, accountId)).then((r) => r[0] ?? null),
    db.select().from(records).where(eq(records.accountId, accountId)).orderBy(desc(records.createdAt), desc(records.id)).limit(OVERVIEW_LIMIT),
    db.select({ environment: records.environment, status: records.status, n: count() }).from(records)
      .where(eq(records.accountId, accountId)).groupBy(records.environment, records.status),
    db.select().from(apiKeys).where(eq(apiKeys.accountId, accountId)).orderBy(desc(apiKeys.createdAt)).limit(OVERVIEW_LIMIT),
    db.select({ id: webhooks.id, environment: webhooks.environment, url: webhooks.url, status: webhooks.status, disabledReason: webhooks.disabledReason, createdAt: webhooks.createdAt })
      .from(webhooks).where(and(eq(webhooks.accountId, accountId), isNull(webhooks.deletedAt))).orderBy(desc(webhooks.createdAt)).limit(OVERVIEW_LIMIT),
    db.select().from(planRequests).where(eq(planRequests.accountId, accountId)).orderBy(desc(planRequests.createdAt)).limit(20),
    db.select({ id: recordReports.id, recordId: recordReports.recordId, message: recordReports.message, status: recordReports.status, createdAt: recordReports.createdAt })
      .from(recordReports).innerJoin(records, eq(records.id, recordReports.recordId))
      .where(eq(records.accountId, accountId)).orderBy(desc(recordReports.createdAt)).limit(OVERVIEW_LIMIT),
    listAudit(db, { accountId, limit: OVERVIEW_LIMIT }),
  ]);
  const risk = await assessRisk(db, { accountId, values: plainValues(account.name ? [{ kind: "name", value: account.name, field: "account.name" }] : []) }, now);
  const liveActive = recordCounts.filter((c) => c.environment === "live" && c.status === "active").reduce((n, c) => n + c.n, 0);
  return {
    account, organisation, risk, liveActive,
    records: recordRows.map((r) => ({
      id: r.id, claimType: r.claimType, subject: r.subject, environment: r.environment, visibility: r.visibility,
      standing: r.status === "pending_review" || r.status === "rejected" ? r.status : effectiveStatus(r, now.getTime()).status, createdAt: r.createdAt,
    })),
    recordTotal: recordCounts.reduce((n, c) => n + c.n, 0),
    keys: keys.map((k) => ({ id: k.id, environment: k.environment, display: keyDisplay(k), createdAt: k.createdAt, lastUsedAt: k.lastUsedAt, revokedAt: k.revokedAt, scopes: k.scopes })),
    webhooks: hooks, planRequests: plans, reports, audit,
  };
}
