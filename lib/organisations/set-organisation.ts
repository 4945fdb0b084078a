import { and, eq, ne } from "drizzle-orm";
import { accounts, organisations } from "@/drizzle/schema";
import { accountDependency } from "@/lib/accounts/account-profile";
import { announceAccountChange } from "@/lib/accounts/auth-cache";
import { legalNameKey } from "@/lib/connectors/legal-name";
import type { DbOrTx, Tx } from "@/lib/db/client";
import { ApiError } from "@/lib/http/errors";
import { followOrganisation } from "@/lib/records/follow-organisation";
import { notifyStatusChanged } from "@/lib/record-model/notify-status";
import { invalidateStatus } from "@/lib/record-model/status-cache";
import { removeDefaultWatches } from "@/lib/watches/default-watches";
import { addDefaultWatches } from "@/lib/watches/default-watches";

/** What makes an account a verified organisation (a reviewer's approval, or staff through the operator CLI). */
export type VerifiedOrganisation = {
  accountId: string;
  legalName: string;
  lei: string | null;
  jurisdiction: string | null;
  basis: "lei_register" | "documents";
  /** Bare hosts the reviewer confirmed are the entity's (shown only while the account proves them). */
  domains: readonly string[];
  verificationId: string | null;
  at: Date;
};

/** The account that is the verified organisation for `lei` now, other than `exceptAccountId`; null when none. */
export async function leiHolder(db: DbOrTx, lei: string, exceptAccountId?: string) {
  const [row] = await db
    .select({ accountId: organisations.accountId, legalName: organisations.legalName, status: organisations.status })
    .from(organisations)
    .where(exceptAccountId ? and(eq(organisations.lei, lei), ne(organisations.accountId, exceptAccountId)) : eq(organisations.lei, lei));
  return row ?? null;
}

/** 409 `lei_already_verified` naming the holder when another account is the verified organisation for `lei`. */
export async function refuseHeldLei(db: DbOrTx, lei: string | null, accountId: string) {
  if (!lei) return;
  const holder = await leiHolder(db, lei, accountId);
  if (holder) {
    throw new ApiError("lei_already_verified", `LEI ${lei} is already the verified organisation of account ${holder.accountId} (${holder.legalName}); remove that verification first.`, "lei");
  }
}

/**
 * Record the account as a verified organisation, inside `tx`: its public name becomes the
 * legal name (locked), and every cached public view of its records is dropped on commit.
 * One LEI belongs to one account at a time: 409 `lei_already_verified` naming the holder.
 */
export async function setVerifiedOrganisation(tx: Tx, o: VerifiedOrganisation) {
  await refuseHeldLei(tx, o.lei, o.accountId);
  const row = {
    legalName: o.legalName, nameKey: legalNameKey(o.legalName), lei: o.lei, jurisdiction: o.jurisdiction, basis: o.basis,
    status: "verified" as const, statusReason: null, verifiedAt: o.at, domains: [...new Set(o.domains)].sort(),
    verificationId: o.verificationId, checkedAt: o.lei ? o.at : null, updatedAt: o.at,
  };
  await tx.insert(organisations).values({ accountId: o.accountId, ...row }).onConflictDoUpdate({ target: organisations.accountId, set: row });
  await tx.update(accounts).set({ name: o.legalName }).where(eq(accounts.id, o.accountId));
  await addDefaultWatches(tx, o.accountId, { legalName: o.legalName, lei: o.lei, domains: o.domains }, o.at);
  await notifyStatusChanged(tx, [accountDependency(o.accountId)]);
  // Verified again: what its lapse suspended is reinstated (issue 38, item 7).
  await followOrganisation(tx, o.accountId, null, o.at);
}

/** Staff remove a verification (the account's name stays as it was, now self-declared again); its default watches go with it. */
export async function removeVerifiedOrganisation(tx: Tx, accountId: string): Promise<boolean> {
  const gone = await tx.delete(organisations).where(eq(organisations.accountId, accountId)).returning({ id: organisations.accountId });
  if (gone.length > 0) {
    await notifyStatusChanged(tx, [accountDependency(accountId)]);
    await followOrganisation(tx, accountId, "Proof Records removed the verification", new Date());
    await removeDefaultWatches(tx, accountId);
  }
  return gone.length > 0;
}

/** The LEI re-check's verdict on a verified organisation: `lapsed` with the register's reason, or `verified` again. */
export async function setOrganisationStanding(tx: Tx, accountId: string, status: "verified" | "lapsed", reason: string | null, at: Date) {
  await tx.update(organisations).set({ status, statusReason: reason, checkedAt: at, updatedAt: at }).where(eq(organisations.accountId, accountId));
  await notifyStatusChanged(tx, [accountDependency(accountId)]);
  // What rests on the organisation follows it: suspended while it is lapsed, reinstated when it stands again (issue 38, item 7).
  await followOrganisation(tx, accountId, reason, at);
}

/** After the transaction committed: this process drops what it cached about the account at once. */
export function afterOrganisationChange(accountId: string) {
  announceAccountChange();
  invalidateStatus(accountDependency(accountId));
}
