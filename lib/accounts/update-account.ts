import { eq, sql } from "drizzle-orm";
import { accounts, organisations } from "@/drizzle/schema";
import type { Db } from "@/lib/db/client";
import { ApiError } from "@/lib/http/errors";
import { parseOrThrow } from "@/lib/http/validation";
import { notifyStatusChanged } from "@/lib/record-model/notify-status";
import { invalidateStatus } from "@/lib/record-model/status-cache";
import { queueTask } from "@/lib/outbox/tasks";
import { accountDependency, accountUpdateSchema, getAccount } from "./account-profile";
import { announceAccountChange } from "./auth-cache";
import type { AuthContext } from "./types";

/**
 * Set or clear the organisation name. Records issued from now on carry it in their signed
 * payload; every cached public view of the account's records is dropped at once (here, and
 * in other processes through the status notification).
 */
export async function updateAccount(db: Db, auth: AuthContext, raw: unknown) {
  const input = parseOrThrow(accountUpdateSchema, raw);
  // A verified organisation's name is its legal name, locked until a new verification.
  const [org] = await db.select({ legalName: organisations.legalName }).from(organisations).where(eq(organisations.accountId, auth.accountId));
  if (org) {
    throw new ApiError("name_locked", `This account is the verified organisation ${org.legalName}; its name is its legal name and changes only with a new organisation verification.`, "name");
  }
  await db.transaction(async (tx) => {
    const [old] = await tx.select({ name: accounts.name }).from(accounts).where(eq(accounts.id, auth.accountId)).for("update");
    // A rename (a name replaced by another) is counted: reviewers see it as a risk signal.
    const renamed = old?.name != null && old.name !== input.name;
    await tx.update(accounts).set({ name: input.name, ...(renamed && { renameCount: sql`${accounts.renameCount} + 1`, renamedAt: new Date() }) })
      .where(eq(accounts.id, auth.accountId));
    await notifyStatusChanged(tx, [accountDependency(auth.accountId)]);
    // The account's live records now speak under this name: another account's watch on it fires
    // (the watches take the rename from the outbox once this commits: lib/watches/watch-subscriber.ts).
    if (input.name) await queueTask(tx, "account.renamed", { accountId: auth.accountId, name: input.name });
  });
  announceAccountChange(); // cached API-key contexts carry the old name
  invalidateStatus(accountDependency(auth.accountId));
  return getAccount(db, { ...auth, accountName: input.name });
}
