import type { Db } from "@/lib/db/client";
import { getEnv } from "@/lib/env";
import { sendMail } from "@/lib/mail/send-mail";
import { createLoginToken, LOGIN_TOKEN_TTL_SECONDS, type LoginTokenPurpose } from "./login-token";
import { findAccountByEmail } from "./signup";

export function loginLinkUrl(purpose: LoginTokenPurpose, token: string): string {
  const page = purpose === "magic_link" ? "/signin/link" : "/reset-password";
  return `${getEnv().publicBaseUrl}${page}?token=${encodeURIComponent(token)}`;
}

const MAILS: Record<LoginTokenPurpose, { subject: string; lines: (url: string, minutes: number) => string[] }> = {
  magic_link: {
    subject: "Your sign-in link for Proof Records",
    lines: (url, minutes) => [
      "Someone (hopefully you) asked for a link to sign in to Proof Records with this address.",
      "",
      'Open this link and press "Sign in":',
      url,
      "",
      `The link works once, for ${minutes} minutes. Opening it also confirms this email address.`,
      "If this was not you, ignore this mail: nobody can sign in without it.",
    ],
  },
  password_reset: {
    subject: "Reset your Proof Records password",
    lines: (url, minutes) => [
      "Someone (hopefully you) asked to set a new password for the Proof Records account with this address.",
      "",
      "Choose a new password here:",
      url,
      "",
      `The link works once, for ${minutes} minutes.`,
      "If this was not you, ignore this mail: your password stays as it is.",
    ],
  },
};

/**
 * Mail a single-use link to `email` if an account has that address; otherwise do nothing.
 * The caller answers the same either way (no account enumeration). Returns whether a
 * mail went out, for tests and logs only.
 */
export async function sendLoginLink(db: Db, email: string, purpose: LoginTokenPurpose): Promise<boolean> {
  const account = await findAccountByEmail(db, email);
  if (!account) return false;
  const token = await createLoginToken(db, account.id, purpose);
  const mail = MAILS[purpose];
  await sendMail({
    to: account.email,
    subject: mail.subject,
    text: mail.lines(loginLinkUrl(purpose, token), LOGIN_TOKEN_TTL_SECONDS[purpose] / 60).join("\n"),
  });
  return true;
}
