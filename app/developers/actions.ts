"use server";

import { revalidatePath } from "next/cache";
import { ApiKeyRefused, createApiKey } from "@/lib/accounts/create-api-key";
import { revokeOwnApiKey } from "@/lib/accounts/manage-account";
import { authLimits } from "@/lib/auth/limits";
import { requireAccount } from "@/lib/auth/session";
import { sendConfirmationMail } from "@/lib/auth/signup";
import { getDb } from "@/lib/db/client";

// Every action re-reads the session (server side) and acts only on that account. Next
// refuses server-action POSTs whose Origin differs from the host: that is the CSRF check.

export type CreateKeyState = { error?: string; created?: { environment: "sandbox" | "live"; secret: string; keyId: string } };

export async function createKeyAction(_prev: CreateKeyState, form: FormData): Promise<CreateKeyState> {
  const account = await requireAccount();
  const environment = form.get("environment");
  if (environment !== "sandbox" && environment !== "live") return { error: "Choose sandbox or live." };
  try {
    const { key, keyId } = await createApiKey(await getDb(), account.id, environment);
    revalidatePath("/developers");
    return { created: { environment, secret: key, keyId } };
  } catch (e) {
    if (e instanceof ApiKeyRefused) return { error: e.message };
    console.error(`[prs] key creation failed: ${(e as Error).stack ?? e}`);
    return { error: "The key could not be created. Please try again." };
  }
}

export async function revokeKeyAction(form: FormData): Promise<void> {
  const account = await requireAccount();
  const keyId = form.get("keyId");
  if (typeof keyId === "string" && /^key_[a-z0-9]{1,64}$/.test(keyId)) {
    await revokeOwnApiKey(await getDb(), account.id, keyId);
  }
  revalidatePath("/developers");
}

export type ResendState = { message?: string; error?: string };

export async function resendConfirmationAction(_prev: ResendState): Promise<ResendState> {
  const account = await requireAccount();
  if (account.emailConfirmedAt) return { message: "Your email address is already confirmed." };
  if (!authLimits().signUp.hit(`resend:${account.id}`).ok) return { error: "Too many mails requested. Wait a minute." };
  try {
    await sendConfirmationMail(account.id, account.email);
    return { message: `We sent a new confirmation link to ${account.email}.` };
  } catch {
    return { error: "The mail could not be sent. Please try again later." };
  }
}
