import { eq } from "drizzle-orm";
import { accounts } from "@/drizzle/schema";
import { AccountExists, createAccount } from "@/lib/accounts/create-account";
import type { Db } from "@/lib/db/client";
import { getEnv } from "@/lib/env";
import { log } from "@/lib/log/logger";
import { sendMail } from "@/lib/mail/send-mail";
import { CONFIRM_TTL_SECONDS, makeConfirmToken } from "./confirm-token";
import { hashPassword } from "./password";

export { AccountExists };

export function confirmUrl(accountId: string): string {
  return `${getEnv().publicBaseUrl}/confirm?token=${encodeURIComponent(makeConfirmToken(accountId))}`;
}

export async function sendConfirmationMail(accountId: string, email: string, createdBy: "signup" | "operator" = "signup") {
  if (createdBy === "operator") {
    // An account the operator made: confirming revokes nothing (lib/auth/redeem-login-link.ts).
    await sendMail({
      to: email,
      subject: "Confirm your email address for Proof Records",
      text: [
        "The Proof Records operator created an account for this address.",
        "",
        "Open this link and press the button to confirm it (and choose the account's password):",
        confirmUrl(accountId),
        "",
        `The link works for ${CONFIRM_TTL_SECONDS / 3600} hours. A confirmed email address is needed for live API keys.`,
      ].join("\n"),
    });
    return;
  }
  await sendMail({
    to: email,
    subject: "Confirm your email address for Proof Records",
    text: [
      "Someone (hopefully you) created a Proof Records account with this address.",
      "",
      "If you created it, open this link and press the button to confirm it:",
      confirmUrl(accountId),
      "",
      `The link works for ${CONFIRM_TTL_SECONDS / 3600} hours. A confirmed email address is needed for live API keys.`,
      "Confirming sets the account's password to the one you enter on that page and revokes what was made before",
      "confirmation: sessions, API keys, mandate keys and webhooks (anyone can sign up with any address).",
      "",
      "If you did not create this account, do not confirm it. To take it over, use \"Forgot password?\" on the sign-in page",
      `(${getEnv().publicBaseUrl}/reset-password) with this address: setting a password through the link we mail you`,
      "revokes the password, sessions, API keys, mandate keys and webhooks of whoever created it.",
    ].join("\n"),
  });
}

/** Create a portal account (with its first sandbox key) and mail the confirmation link. */
export async function signUp(db: Db, input: { email: string; password: string }) {
  const passwordHash = await hashPassword(input.password);
  const created = await createAccount(db, { email: input.email, passwordHash });
  let mailed = true;
  try {
    await sendConfirmationMail(created.accountId, created.email);
  } catch (e) {
    // The account exists; the mail can be sent again from the portal.
    mailed = false;
    log().error({ err: e, account_id: created.accountId }, "confirmation mail failed");
  }
  return { ...created, mailed };
}

export async function findAccountByEmail(db: Db, email: string) {
  const [row] = await db.select().from(accounts).where(eq(accounts.email, email));
  return row;
}

export async function findAccountById(db: Db, id: string) {
  const [row] = await db.select().from(accounts).where(eq(accounts.id, id));
  return row;
}
