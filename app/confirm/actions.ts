"use server";

import { confirmEmail } from "@/lib/accounts/manage-account";
import { checkConfirmToken } from "@/lib/auth/confirm-token";
import { getDb } from "@/lib/db/client";
import { CONFIRM_MESSAGES } from "./messages";

export type ConfirmState = { confirmed?: string; error?: string };

/**
 * "Yes, I created this account": confirms the sign-up as it was made. A POST, so a mail
 * scanner fetching the link confirms nothing (the page only asks).
 */
export async function confirmEmailAction(_prev: ConfirmState, form: FormData): Promise<ConfirmState> {
  const token = form.get("token");
  const check = checkConfirmToken(typeof token === "string" ? token : undefined);
  if (!check.ok) return { error: CONFIRM_MESSAGES[check.reason] };
  if (!(await confirmEmail(await getDb(), check.accountId))) return { error: CONFIRM_MESSAGES.invalid };
  return { confirmed: CONFIRM_MESSAGES.confirmed };
}
