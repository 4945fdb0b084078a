import { and, desc, eq } from "drizzle-orm";
import { z } from "zod";
import { accounts, files, organisationVerifications } from "@/drizzle/schema";
import { loadAccountProfiles, NO_PROFILE } from "@/lib/accounts/account-profile";
import { isValidLei } from "@/lib/connectors/lei-format";
import type { Db, DbOrTx } from "@/lib/db/client";
import { filesOfAccount } from "@/lib/files/get-file";
import { FILE_RETENTION_MS } from "@/lib/files/store-file";
import { ApiError } from "@/lib/http/errors";
import { parseOrThrow } from "@/lib/http/validation";
import { newOrganisationVerificationId } from "@/lib/ids";
import { NO_CONTROL, NO_HIDDEN, noControl, noHiddenText } from "@/lib/record-model/schemas";
import { askRegister, registerAnswerOf, type RegisterAnswer } from "./register-answer";

const line = (max: number, what: string) =>
  z.string().trim().min(1).max(max).regex(noControl, NO_CONTROL).regex(noHiddenText, NO_HIDDEN).regex(/^[^\r\n\t]*$/, "must be one line.").describe(what);

export const MAX_DOCUMENTS = 10;

export const organisationVerificationRequest = z
  .strictObject({
    lei: z.string().trim().max(40).optional().describe("The entity's LEI (ISO 17442). Omit it for entities without one and sole traders: a reviewer then confirms the legal name from the documents."),
    applicant: z.strictObject({
      name: line(200, "The person applying for the entity."),
      role: line(200, "Their role at the entity (e.g. director)."),
      email: z.email().max(254).describe("Where the reviewer may write to the applicant. The reviewer also reaches the entity through a channel the applicant did not supply."),
    }),
    documents: z.array(z.string().max(40)).min(1).max(MAX_DOCUMENTS)
      .describe("Ids of files this account uploaded (POST /api/v1/files): a registry extract, a letter of authority, an identity document naming the applicant as able to act for the entity."),
  })
  .meta({ id: "OrganisationVerificationRequest" });

type VerificationRow = typeof organisationVerifications.$inferSelect;
type DocumentMeta = { id: string; filename: string; contentType: "application/pdf" | "image/png" | "image/jpeg"; sha256: string };

/** The application object the API answers (no reviewer notes, no checklist, no bytes). */
export function serializeVerification(row: VerificationRow, documents: readonly DocumentMeta[]) {
  return {
    object: "organisation_verification" as const, id: row.id, status: row.status, lei: row.lei, applicant: { ...row.applicant },
    documents: documents.map((d) => ({ id: d.id, filename: d.filename, content_type: d.contentType, sha256: d.sha256 })),
    register: registerAnswerOf(row.register), created_at: row.createdAt.toISOString(),
    decided_at: row.decidedAt?.toISOString() ?? null, reason: row.reason,
  };
}

const pendingConflict = (id: string) =>
  new ApiError("verification_pending", `This account already has a pending organisation verification (${id}); wait for the reviewer's decision.`);

async function pendingOf(db: DbOrTx, accountId: string) {
  const [row] = await db.select({ id: organisationVerifications.id }).from(organisationVerifications)
    .where(and(eq(organisationVerifications.accountId, accountId), eq(organisationVerifications.status, "pending"))).limit(1);
  return row ?? null;
}

/**
 * Apply to be a verified organisation (CONTRACT "The speaking account"): the documents must
 * be the account's own files; the LEI, when given, must be well formed and the register is
 * asked (its answer — found, not found or unreachable — is kept for the reviewer). One
 * pending application per account (409 `verification_pending`). Answers the application.
 */
export async function applyForVerification(db: Db, accountId: string, raw: unknown, now = new Date()) {
  const input = parseOrThrow(organisationVerificationRequest, raw);
  const lei = input.lei ? input.lei.toUpperCase() : null;
  if (input.lei !== undefined && (!lei || !isValidLei(lei))) {
    throw new ApiError("invalid_lei", "'lei' is not an LEI: 20 letters and digits ending in two ISO 17442 check digits. Omit it when the entity has none.", "lei");
  }
  const ids = [...new Set(input.documents)];
  const docs = await filesOfAccount(db, accountId, ids);
  const missing = ids.findIndex((id) => !docs.some((d) => d.id === id));
  if (missing >= 0) {
    const at = input.documents.indexOf(ids[missing]!);
    throw new ApiError("invalid_document", `documents[${at}] is not a file of this account: upload it first with POST /api/v1/files.`, `documents[${at}]`);
  }
  const pending = await pendingOf(db, accountId);
  if (pending) throw pendingConflict(pending.id);
  const register: RegisterAnswer | null = lei ? await askRegister(lei, now) : null;
  const row = await db.transaction(async (tx) => {
    // One application at a time: the account row is the lock two concurrent applications meet on.
    await tx.select({ id: accounts.id }).from(accounts).where(eq(accounts.id, accountId)).for("update");
    const raced = await pendingOf(tx, accountId);
    if (raced) throw pendingConflict(raced.id);
    const [inserted] = await tx.insert(organisationVerifications).values({
      id: newOrganisationVerificationId(), accountId, lei, applicant: input.applicant, documents: ids, status: "pending", register, createdAt: now,
    }).returning();
    // Kept while the application waits (90 days from now); the decision sets the final date.
    for (const id of ids) {
      await tx.update(files).set({ usedBy: inserted!.id, deleteAfter: new Date(now.getTime() + FILE_RETENTION_MS) })
        .where(and(eq(files.id, id), eq(files.accountId, accountId)));
    }
    return inserted!;
  });
  return serializeVerification(row, docs);
}

/** The account's latest application (serialized), or null. */
export async function latestVerification(db: DbOrTx, accountId: string) {
  const [row] = await db.select().from(organisationVerifications).where(eq(organisationVerifications.accountId, accountId))
    .orderBy(desc(organisationVerifications.createdAt)).limit(1);
  if (!row) return null;
  return serializeVerification(row, await filesOfAccount(db, accountId, row.documents));
}

/** GET /api/v1/account/organisation-verification: the latest application and the organisation now. */
export async function getVerificationState(db: DbOrTx, accountId: string) {
  const [application, profiles] = await Promise.all([latestVerification(db, accountId), loadAccountProfiles(db, [accountId])]);
  const profile = profiles.get(accountId) ?? NO_PROFILE;
  return { object: "organisation_verification_state" as const, application, organisation: profile.organisation, name_verified: profile.name_verified };
}
