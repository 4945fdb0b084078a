"use server";

import { headers } from "next/headers";
import { redirect } from "next/navigation";
import { after } from "next/server";
import { passwordSchema } from "@/lib/auth/credentials";
import { authLimits } from "@/lib/auth/limits";
import { LOGIN_TOKEN_RE } from "@/lib/auth/login-token";
import { resetPassword } from "@/lib/auth/redeem-login-link";
import { requestLoginLink, type LinkRequestState } from "@/lib/auth/request-login-link";
import { getDb } from "@/lib/db/client";
import { clientAddress } from "@/lib/http/rate-limit";
import { RESET_PROBLEMS } from "./messages";
import { log } from "@/lib/log/logger";
import { guardedAction, errorState } from "@/lib/forms/guarded-action";

/** "Forgot password?": mail a reset link (same answer whether or not the account exists). */
export const emailResetLinkAction = guardedAction(async (_prev: LinkRequestState, form: FormData): Promise<LinkRequestState> => {
  return requestLoginLink(clientAddress(await headers()), form.get("email"), "password_reset", after);
}, errorState);

export type NewPasswordState = { error?: string; fieldError?: string };

/** The reset link's form: a new password under the sign-up rules; on success, on to /signin. */
export const setNewPasswordAction = guardedAction(async (_prev: NewPasswordState, form: FormData): Promise<NewPasswordState> => {
  const limit = await authLimits().signIn.hit(clientAddress(await headers()));
  if (!limit.ok) return { error: `Too many attempts from your address. Try again in ${limit.retryAfterSeconds} seconds.` };
  const token = form.get("token");
  if (typeof token !== "string" || !LOGIN_TOKEN_RE.test(token)) return { error: RESET_PROBLEMS.invalid };
  const parsed = passwordSchema.safeParse(form.get("password") ?? "");
  if (!parsed.success) return { fieldError: parsed.error.issues[0]?.message ?? "Choose another password." };
  let result;
  try {
    result = await resetPassword(await getDb(), token, parsed.data);
  } catch (e) {
    log().error({ err: e }, "password reset failed");
    return { error: "Something went wrong on our side; your password was not changed. Please try again." };
  }
  if (!result.ok) return { error: RESET_PROBLEMS[result.reason] };
  redirect("/signin?reset=1");
}, errorState);
