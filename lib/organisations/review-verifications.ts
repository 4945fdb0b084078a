import { and, asc, desc, eq, inArray, ne } from "drizzle-orm";
import { alias } from "drizzle-orm/pg-core";
import { accounts, organisations, organisationVerifications } from "@/drizzle/schema";
import { loadAccountProfiles, NO_PROFILE } from "@/lib/accounts/account-profile";
import { legalNameKey } from "@/lib/connectors/legal-name";
import type { Db } from "@/lib/db/client";
import { filesOfAccount } from "@/lib/files/get-file";
import { ORGANISATION_VERIFICATION_ID_RE } from "@/lib/ids";
import { firstApproval } from "@/lib/reviews/four-eyes";
import { assessRisk, plainValues } from "@/lib/reviews/risk-signals";
import { slaState } from "@/lib/reviews/review-queue";
import { registerAnswerOf } from "./register-answer";
import { leiHolder } from "./set-organisation";
import { verificationChecklist } from "./verification-checklist";

/** Pending organisation verifications, oldest first. */
export async function listPendingVerifications(db: Db, now = new Date(), limit = 200) {
  const rows = await db
    .select({
      id: organisationVerifications.id, lei: organisationVerifications.lei, applicant: organisationVerifications.applicant,
      register: organisationVerifications.register, createdAt: organisationVerifications.createdAt,
      accountId: organisationVerifications.accountId, accountEmail: accounts.email,
    })
    .from(organisationVerifications)
    .innerJoin(accounts, eq(accounts.id, organisationVerifications.accountId))
    .where(eq(organisationVerifications.status, "pending"))
    .orderBy(asc(organisationVerifications.createdAt), asc(organisationVerifications.id))
    .limit(limit);
  return rows.map((r) => ({ ...r, register: registerAnswerOf(r.register), sla: slaState(r.createdAt, now) }));
}

/** At most this many namesakes are shown (a name held by more is itself the finding). */
const MAX_NAMESAKES = 10;

/**
 * Verified (or lapsed) organisations of other accounts whose normalised legal name is one of
 * `names` (issue 38, "names are not identities"): the reviewer sees them before approving a
 * second organisation under the same name — which /check then cannot tell apart by name.
 */
export async function namesakesOf(db: Db, accountId: string, names: readonly (string | null | undefined)[]) {
  const keys = [...new Set(names.filter((n): n is string => typeof n === "string" && n.trim() !== "").map(legalNameKey))].filter((k) => k !== "");
  if (keys.length === 0) return [];
  return db
    .select({ accountId: organisations.accountId, legalName: organisations.legalName, lei: organisations.lei, jurisdiction: organisations.jurisdiction, basis: organisations.basis, status: organisations.status, verifiedAt: organisations.verifiedAt })
    .from(organisations)
    .where(and(inArray(organisations.nameKey, keys), ne(organisations.accountId, accountId)))
    .orderBy(asc(organisations.verifiedAt), asc(organisations.accountId))
    .limit(MAX_NAMESAKES);
}

/**
 * Everything the reviewer's page of one application shows: the application, the register's
 * answer, its documents, the account (its profile and proved domains), the account that
 * already holds the LEI (if another does), other organisations with the same legal name
 * (namesakes), the checklist and the account's earlier applications.
 */
export async function getVerificationForReview(db: Db, id: string, now = new Date()) {
  if (!ORGANISATION_VERIFICATION_ID_RE.test(id)) return null;
  const [row] = await db.select().from(organisationVerifications).where(eq(organisationVerifications.id, id));
  if (!row) return null;
  const decider = alias(accounts, "decider");
  const [account] = await db
    .select({ id: accounts.id, email: accounts.email, name: accounts.name, plan: accounts.plan, createdAt: accounts.createdAt, emailConfirmedAt: accounts.emailConfirmedAt })
    .from(accounts).where(eq(accounts.id, row.accountId));
  const [documents, profiles, holder, earlier, decidedBy] = await Promise.all([
    filesOfAccount(db, row.accountId, row.documents),
    loadAccountProfiles(db, [row.accountId]),
    row.lei ? leiHolder(db, row.lei, row.accountId) : Promise.resolve(null),
    db.select({ id: organisationVerifications.id, status: organisationVerifications.status, lei: organisationVerifications.lei, createdAt: organisationVerifications.createdAt, reason: organisationVerifications.reason })
      .from(organisationVerifications)
      .where(and(eq(organisationVerifications.accountId, row.accountId), ne(organisationVerifications.id, row.id)))
      .orderBy(desc(organisationVerifications.createdAt)).limit(20),
    row.decidedBy ? db.select({ email: decider.email }).from(decider).where(eq(decider.id, row.decidedBy)) : Promise.resolve([]),
  ]);
  const holderAccount = holder ? (await db.select({ email: accounts.email }).from(accounts).where(eq(accounts.id, holder.accountId)))[0] : undefined;
  const register = registerAnswerOf(row.register);
  // The names it could be approved under: the register's legal name, the name decided (once approved), the account's own.
  const namesakes = await namesakesOf(db, row.accountId, [register?.result === "found" ? register.legal_name : null, row.legalName, account?.name]);
  const profile = profiles.get(row.accountId) ?? NO_PROFILE;
  const risk = await assessRisk(db, {
    accountId: row.accountId, environment: "live",
    values: plainValues([
      ...[register?.result === "found" ? register.legal_name : null, row.legalName, account?.name]
        .filter((n): n is string => Boolean(n)).map((value) => ({ kind: "name" as const, value, field: "legal_name" })),
      ...(row.lei ? [{ kind: "lei" as const, value: row.lei, field: "lei" }] : []),
      ...profile.verified_domains.map((value) => ({ kind: "domain" as const, value, field: "domains" })),
    ]),
  }, now);
  const first = row.status === "pending" && risk.level === "high" ? await firstApproval(db, "organisation_application", row.id, "organisation.approve_first") : null;
  return {
    namesakes, risk, firstApproval: first,
    row, account: account!, documents, register,
    profile,
    holder: holder && { ...holder, email: holderAccount?.email ?? null },
    checklist: verificationChecklist(row.lei !== null), earlier, decidedBy: decidedBy[0]?.email ?? null,
    sla: slaState(row.createdAt, now),
  };
}

/** The account of application `id` when `fileId` is one of its documents, else null. */
export async function applicationDocument(db: Db, id: string, fileId: string): Promise<string | null> {
  if (!ORGANISATION_VERIFICATION_ID_RE.test(id)) return null;
  const [row] = await db.select({ accountId: organisationVerifications.accountId, documents: organisationVerifications.documents })
    .from(organisationVerifications).where(eq(organisationVerifications.id, id));
  return row && row.documents.includes(fileId) ? row.accountId : null;
}
