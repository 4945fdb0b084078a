"use server";

import { revalidatePath } from "next/cache";
import { ApiKeyRefused, createApiKey } from "@/lib/accounts/create-api-key";
import { portalEnvironment } from "@/lib/accounts/live-access";
import { revokeOwnApiKey } from "@/lib/accounts/manage-account";
import type { Environment } from "@/lib/accounts/types";
import { authLimits } from "@/lib/auth/limits";
import { requireAccount } from "@/lib/auth/session";
import { sendConfirmationMail } from "@/lib/auth/signup";
import { getDb } from "@/lib/db/client";
import { ApiError } from "@/lib/http/errors";
import { MANDATE_KEY_ID_RE, WEBHOOK_ID_RE } from "@/lib/ids";
import { createMandateKey, parseMandateKeyCreate, revokeMandateKey } from "@/lib/mandates/manage-mandate-keys";
import { SUBSCRIBABLE_EVENTS } from "@/lib/outbox/write-event";
import { portalAuth } from "@/lib/records/portal-auth";
import { createWebhook, deleteWebhook, webhookCreateSchema } from "@/lib/webhooks/manage-webhooks";
import { describeError } from "@/lib/log/describe-error";

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
    console.error(`[prs] key creation failed: ${describeError(e)}`);
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

/** An ApiError's message is written for API clients and safe to show; anything else is logged. */
function failure(e: unknown, what: string): string {
  if (e instanceof ApiError) return e.message;
  console.error(`[prs] portal ${what} failed: ${describeError(e)}`);
  return `The ${what} failed. Please try again.`;
}

export type MandateKeyState = {
  error?: string;
  /** Kept for the form on error; the public key is never sent back (it may be a pasted private key). */
  keyId?: string;
  registered?: { keyId: string; environment: Environment };
};

// The principal is the signed-in account: the form carries no account, and the key is
// registered exactly as POST /api/v1/mandate-keys would with that account's key.
export async function registerMandateKeyAction(_prev: MandateKeyState, form: FormData): Promise<MandateKeyState> {
  const account = await requireAccount();
  const keyId = String(form.get("key_id") ?? "").trim();
  const env = portalEnvironment(account, form.get("environment"));
  if ("error" in env) return { error: env.error, keyId };
  try {
    const input = parseMandateKeyCreate({ key_id: keyId, public_key: String(form.get("public_key") ?? "").trim() });
    const key = await createMandateKey(await getDb(), portalAuth(account, env.environment), input);
    revalidatePath("/developers");
    return { registered: { keyId: key.key_id, environment: env.environment } };
  } catch (e) {
    return { error: failure(e, "mandate key registration"), keyId };
  }
}

export async function revokeMandateKeyAction(form: FormData): Promise<void> {
  const account = await requireAccount();
  const keyId = form.get("key_id");
  const environment = form.get("environment");
  if (typeof keyId === "string" && MANDATE_KEY_ID_RE.test(keyId) && (environment === "sandbox" || environment === "live")) {
    // Scoped to the session's account and the row's environment: another account's key reads as not found.
    await revokeMandateKey(await getDb(), portalAuth(account, environment), keyId).catch((e) => {
      if (!(e instanceof ApiError)) throw e;
    });
  }
  revalidatePath("/developers");
}

export type WebhookState = {
  error?: string;
  values?: { url: string; description: string };
  created?: { id: string; url: string; environment: Environment; secret: string };
};

export async function createWebhookAction(_prev: WebhookState, form: FormData): Promise<WebhookState> {
  const account = await requireAccount();
  const url = String(form.get("url") ?? "").trim();
  const description = String(form.get("description") ?? "").trim();
  const values = { url, description };
  const env = portalEnvironment(account, form.get("environment"));
  if ("error" in env) return { error: env.error, values };
  const events = form.getAll("events").map(String);
  if (events.some((e) => !(SUBSCRIBABLE_EVENTS as readonly string[]).includes(e))) return { error: "Choose events from the list.", values };
  const parsed = webhookCreateSchema.safeParse({ url, ...(events.length ? { events } : {}), ...(description ? { description } : {}) });
  if (!parsed.success) {
    const field = parsed.error.issues[0]?.path[0];
    return { error: field === "description" ? "The description may be at most 500 characters." : "Enter a URL of at most 2,000 characters.", values };
  }
  try {
    const hook = await createWebhook(await getDb(), portalAuth(account, env.environment), parsed.data);
    if (!hook.secret) throw new Error("createWebhook answered without the secret");
    revalidatePath("/developers");
    return { created: { id: hook.id, url: hook.url, environment: hook.environment, secret: hook.secret } };
  } catch (e) {
    return { error: failure(e, "webhook registration"), values };
  }
}

export async function deleteWebhookAction(form: FormData): Promise<void> {
  const account = await requireAccount();
  const id = form.get("id");
  const environment = form.get("environment");
  if (typeof id === "string" && WEBHOOK_ID_RE.test(id) && (environment === "sandbox" || environment === "live")) {
    await deleteWebhook(await getDb(), portalAuth(account, environment), id).catch((e) => {
      if (!(e instanceof ApiError)) throw e;
    });
  }
  revalidatePath("/developers");
}
