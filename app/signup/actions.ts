"use server";

import { headers } from "next/headers";
import { getDb } from "@/lib/db/client";
import { signUpSchema } from "@/lib/auth/credentials";
import { authLimits } from "@/lib/auth/limits";
import { AccountExists, signUp } from "@/lib/auth/signup";
import type { FormState } from "@/lib/forms/form-state";
import { formText } from "@/lib/forms/form-state";
import { clientAddress } from "@/lib/http/rate-limit";
import { log } from "@/lib/log/logger";
import { guardedAction, formErrorState } from "@/lib/forms/guarded-action";

/** The email is put back on every refusal; the password never is (it is typed again). */
export type SignUpState = FormState<{ email: string }, "email" | "password"> & {
  created?: { email: string; sandboxKey: string; mailed: boolean };
};

export const signUpAction = guardedAction(async (_prev: SignUpState, form: FormData): Promise<SignUpState> => {
  const email = formText(form, "email", 300);
  const values = { email };
  const limit = await authLimits().signUp.hit(clientAddress(await headers()));
  if (!limit.ok) {
    return { values, errors: { form: `Too many sign-up attempts from your address. Try again in ${limit.retryAfterSeconds} seconds.` } };
  }
  const parsed = signUpSchema.safeParse({ email: form.get("email") ?? "", password: form.get("password") ?? "" });
  if (!parsed.success) {
    const errors: NonNullable<SignUpState["errors"]> = {};
    for (const issue of parsed.error.issues) {
      const field = issue.path[0] as "email" | "password";
      errors[field] ??= issue.message;
    }
    return { values, errors };
  }
  try {
    const created = await signUp(await getDb(), parsed.data);
    return { created: { email: created.email, sandboxKey: created.sandboxKey, mailed: created.mailed } };
  } catch (e) {
    if (e instanceof AccountExists) {
      return { values, errors: { email: "This email address cannot be used for a new account. If it is yours, sign in instead." } };
    }
    log().error({ err: e }, "sign-up failed");
    return { values, errors: { form: "Something went wrong on our side; your account was not created. Please try again." } };
  }
}, formErrorState);
