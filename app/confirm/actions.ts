"use server";

import { headers } from "next/headers";
import { passwordSchema } from "@/lib/auth/credentials";
import { checkConfirmToken } from "@/lib/auth/confirm-token";
import { authLimits } from "@/lib/auth/limits";
import { confirmThroughSignupLink } from "@/lib/auth/redeem-login-link";
import { getDb } from "@/lib/db/client";
import { clientAddress } from "@/lib/http/rate-limit";
import { log } from "@/lib/log/logger";
import { CONFIRM_MESSAGES } from "./messages";
import { guardedAction, errorState } from "@/lib/forms/guarded-action";

export type ConfirmState = { confirmed?: string; error?: string; fieldError?: string };

/**
 * "Yes, I created this account": a POST, so a mail scanner fetching the link confirms
 * nothing (the page only asks). Like the mailed sign-in and reset links, it revokes what was
 * made before confirmation — the sign-up's password (the person sets theirs here), sessions,
 * API keys, mandate keys and webhooks (lib/auth/redeem-login-link.ts confirmThroughSignupLink).
 */
export const confirmEmailAction = guardedAction(async (_prev: ConfirmState, form: FormData): Promise<ConfirmState> => {
  const limit = await authLimits().signIn.hit(clientAddress(await headers()));
  if (!limit.ok) return { error: `Too many attempts from your address. Try again in ${limit.retryAfterSeconds} seconds.` };
  const token = form.get("token");
  const check = checkConfirmToken(typeof token === "string" ? token : undefined);
  if (!check.ok) return { error: CONFIRM_MESSAGES[check.reason] };
  const parsed = passwordSchema.safeParse(form.get("password") ?? "");
  if (!parsed.success) return { fieldError: parsed.error.issues[0]?.message ?? "Choose another password." };
  let result;
  try {
    result = await confirmThroughSignupLink(await getDb(), check.accountId, parsed.data);
  } catch (e) {
    log().error({ err: e }, "email confirmation failed");
    return { error: "Something went wrong on our side; nothing was changed. Please try again." };
  }
  if (result === "no_account") return { error: CONFIRM_MESSAGES.invalid };
  if (result === "already_confirmed") return { confirmed: CONFIRM_MESSAGES.alreadyConfirmed };
  return { confirmed: CONFIRM_MESSAGES.confirmed };
}, errorState);
