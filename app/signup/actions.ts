"use server";

import { headers } from "next/headers";
import { getDb } from "@/lib/db/client";
import { signUpSchema } from "@/lib/auth/credentials";
import { authLimits } from "@/lib/auth/limits";
import { AccountExists, signUp } from "@/lib/auth/signup";
import { clientAddress } from "@/lib/http/rate-limit";
import { describeError } from "@/lib/log/describe-error";

export type SignUpState = {
  error?: string;
  fieldErrors?: { email?: string; password?: string };
  email?: string;
  created?: { email: string; sandboxKey: string; mailed: boolean };
};

export async function signUpAction(_prev: SignUpState, form: FormData): Promise<SignUpState> {
  const rawEmail = form.get("email");
  const email = typeof rawEmail === "string" ? rawEmail.slice(0, 300) : "";
  const limit = authLimits().signUp.hit(clientAddress(await headers()));
  if (!limit.ok) {
    return { email, error: `Too many sign-up attempts from your address. Try again in ${limit.retryAfterSeconds} seconds.` };
  }
  const parsed = signUpSchema.safeParse({ email: form.get("email") ?? "", password: form.get("password") ?? "" });
  if (!parsed.success) {
    const fieldErrors: SignUpState["fieldErrors"] = {};
    for (const issue of parsed.error.issues) {
      const field = issue.path[0] as "email" | "password";
      fieldErrors[field] ??= issue.message;
    }
    return { email, fieldErrors };
  }
  try {
    const created = await signUp(await getDb(), parsed.data);
    return { created: { email: created.email, sandboxKey: created.sandboxKey, mailed: created.mailed } };
  } catch (e) {
    if (e instanceof AccountExists) {
      return { email, fieldErrors: { email: "This email address cannot be used for a new account. If it is yours, sign in instead." } };
    }
    console.error(`[prs] sign-up failed: ${describeError(e)}`);
    return { email, error: "Something went wrong on our side; your account was not created. Please try again." };
  }
}
