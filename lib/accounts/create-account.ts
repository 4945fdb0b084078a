import { accounts } from "@/drizzle/schema";
import type { Db } from "@/lib/db/client";
import { newAccountId } from "@/lib/ids";
import { createApiKey } from "./create-api-key";
import type { Plan, Role } from "./types";

export class AccountExists extends Error {}

/**
 * An account always starts with a sandbox key (shown once). `createdBy` says who vouches for
 * it: "signup" (the default: anyone, with any address) or "operator" (the CLI).
 */
export async function createAccount(
  db: Db,
  input: { email: string; plan?: Plan; role?: Role; emailConfirmed?: boolean; passwordHash?: string; createdBy?: "signup" | "operator" },
) {
  const email = input.email.trim().toLowerCase();
  return db.transaction(async (tx) => {
    const id = newAccountId();
    const inserted = await tx
      .insert(accounts)
      .values({
        id, email, plan: input.plan ?? "none", role: input.role ?? "customer",
        emailConfirmedAt: input.emailConfirmed ? new Date() : null,
        passwordHash: input.passwordHash ?? null,
        createdBy: input.createdBy ?? "signup",
      })
      .onConflictDoNothing({ target: accounts.email })
      .returning({ id: accounts.id });
    if (inserted.length === 0) throw new AccountExists(`An account with email ${email} already exists.`);
    const { key } = await createApiKey(tx, id, "sandbox");
    return { accountId: id, email, sandboxKey: key };
  });
}
