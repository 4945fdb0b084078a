"use server";

import { revalidatePath } from "next/cache";
import { redirect } from "next/navigation";
import { updateAccount } from "@/lib/accounts/update-account";
import { ApiKeyRefused, createApiKey } from "@/lib/accounts/create-api-key";
import { portalEnvironment } from "@/lib/accounts/live-access";
import { revokeOwnApiKey } from "@/lib/accounts/manage-account";
import { PlanRequestRefused, requestPlan } from "@/lib/accounts/plan-requests";
import type { Environment } from "@/lib/accounts/types";
import { authLimits } from "@/lib/auth/limits";
import { requireAccount } from "@/lib/auth/session";
import { sendConfirmationMail } from "@/lib/auth/signup";
import { endAllSessions } from "@/lib/auth/store-password";
import { getDb } from "@/lib/db/client";
import { ApiError } from "@/lib/http/errors";
import { EVENT_ID_RE, MANDATE_KEY_ID_RE, WEBHOOK_ID_RE } from "@/lib/ids";
import { createMandateKey, parseMandateKeyCreate, revokeMandateKey } from "@/lib/mandates/manage-mandate-keys";
import { SUBSCRIBABLE_EVENTS } from "@/lib/outbox/write-event";
import { portalAuth } from "@/lib/record-model/portal-auth";
import { ROTATION_CHOICES } from "./rotation-choices";
import { SCOPES } from "@/lib/accounts/scopes";
import { createWebhook, deleteWebhook, replayEvent, rotateWebhookSecret, sendTestEvent, webhookCreateSchema } from "@/lib/webhooks/manage-webhooks";
import { log } from "@/lib/log/logger";
import { apiFieldErrors, formText, type ConfirmActionState, type FormState } from "@/lib/forms/form-state";
import { parseMandatePublicKey } from "@/lib/mandates/public-key";
import { guardedAction, errorState, formErrorState } from "@/lib/forms/guarded-action";

// Every action re-reads the session (server side) and acts only on that account. Next
// refuses server-action POSTs whose Origin differs from the host: that is the CSRF check.

export type CreateKeyState = {
  error?: string; created?: { environment: "sandbox" | "live"; secret: string; keyId: string; scopes: readonly string[] | null };
};

export const createKeyAction = guardedAction(async (_prev: CreateKeyState, form: FormData): Promise<CreateKeyState> => {
  const account = await requireAccount();
  const environment = form.get("environment");
  if (environment !== "sandbox" && environment !== "live") return { error: "Choose sandbox or live." };
  // A restricted key's scopes (the "Restricted key" form); none chosen there is refused, not widened to all.
  const restricted = form.get("restricted") === "yes";
  const asked = form.getAll("scopes").map(String);
  const scopes = SCOPES.filter((s) => asked.includes(s));
  if (restricted && (scopes.length === 0 || scopes.length !== asked.length)) return { error: "Choose at least one scope from the list." };
  try {
    const { key, keyId } = await createApiKey(await getDb(), account.id, environment, restricted ? scopes : null);
    revalidatePath("/developers");
    return { created: { environment, secret: key, keyId, scopes: restricted ? scopes : null } };
  } catch (e) {
    if (e instanceof ApiKeyRefused) return { error: e.message };
    log().error({ err: e }, "key creation failed");
    return { error: "The key could not be created. Please try again." };
  }
}, errorState);

/** The two-step forms (components/confirm-action.tsx) send confirm=yes; a post without it changes nothing. */
const unconfirmed = (what: string): ConfirmActionState => ({ error: `Nothing was ${what}: confirm with the second button.` });

export const revokeKeyAction = guardedAction(async (_prev: ConfirmActionState, form: FormData): Promise<ConfirmActionState> => {
  const account = await requireAccount();
  if (form.get("confirm") !== "yes") return unconfirmed("revoked");
  const keyId = form.get("keyId");
  if (typeof keyId === "string" && /^key_[a-z0-9]{1,64}$/.test(keyId)) {
    await revokeOwnApiKey(await getDb(), account.id, keyId);
  }
  revalidatePath("/developers");
  return {};
}, errorState);

/** Every session of the account ends, this one included (the session epoch moves); the password stays. */
export const signOutEverywhereAction = guardedAction(async (_prev: ConfirmActionState, form: FormData): Promise<ConfirmActionState> => {
  const account = await requireAccount();
  if (form.get("confirm") !== "yes") return unconfirmed("changed");
  await endAllSessions(await getDb(), account.id);
  redirect("/signin");
}, errorState);

export type ResendState = { message?: string; error?: string };

export const resendConfirmationAction = guardedAction(async (_prev: ResendState): Promise<ResendState> => {
  const account = await requireAccount();
  if (account.emailConfirmedAt) return { message: "Your email address is already confirmed." };
  if (!(await authLimits().signUp.hit(`resend:${account.id}`)).ok) return { error: "Too many mails requested. Wait a minute." };
  try {
    await sendConfirmationMail(account.id, account.email, account.createdBy);
    return { message: `We sent a new confirmation link to ${account.email}.` };
  } catch {
    return { error: "The mail could not be sent. Please try again later." };
  }
}, errorState);

/** An ApiError's message is written for API clients and safe to show; anything else is logged. */
function failure(e: unknown, what: string): string {
  if (e instanceof ApiError) return e.message;
  log().error({ err: e }, `portal ${what} failed`);
  return `The ${what} failed. Please try again.`;
}

const MANDATE_KEY_FIELDS = ["key_id", "public_key", "environment"] as const;
export type MandateKeyState = FormState<{ key_id: string; public_key: string; environment: string }> & {
  registered?: { keyId: string; environment: Environment; url: string };
};

// The principal is the signed-in account: the form carries no account, and the key is
// registered exactly as POST /api/v1/mandate-keys would with that account's key.
export const registerMandateKeyAction = guardedAction(async (_prev: MandateKeyState, form: FormData): Promise<MandateKeyState> => {
  const account = await requireAccount();
  const keyId = formText(form, "key_id", 200).trim();
  const publicKey = formText(form, "public_key", 1000).trim();
  const environment = formText(form, "environment", 20);
  // Put back on a refusal — the public key only when it is one: what was pasted may be a private key, never echoed.
  const values = { key_id: keyId, public_key: parseMandatePublicKey(publicKey).ok ? publicKey : "", environment };
  const env = portalEnvironment(account, environment);
  if ("error" in env) return { values, errors: { environment: env.error } };
  try {
    const input = parseMandateKeyCreate({ key_id: keyId, public_key: publicKey });
    const key = await createMandateKey(await getDb(), portalAuth(account, env.environment), input);
    revalidatePath("/developers");
    const url = `/keys/${encodeURIComponent(account.id)}/${encodeURIComponent(key.key_id)}`;
    return { registered: { keyId: key.key_id, environment: env.environment, url } };
  } catch (e) {
    if (e instanceof ApiError) return { values, errors: apiFieldErrors(e, MANDATE_KEY_FIELDS) };
    return { values, errors: { form: failure(e, "mandate key registration") } };
  }
}, formErrorState);

export const revokeMandateKeyAction = guardedAction(async (_prev: ConfirmActionState, form: FormData): Promise<ConfirmActionState> => {
  const account = await requireAccount();
  if (form.get("confirm") !== "yes") return unconfirmed("revoked");
  const keyId = form.get("key_id");
  const environment = form.get("environment");
  if (typeof keyId === "string" && MANDATE_KEY_ID_RE.test(keyId) && (environment === "sandbox" || environment === "live")) {
    // Scoped to the session's account and the row's environment: another account's key reads as not found.
    await revokeMandateKey(await getDb(), portalAuth(account, environment), keyId).catch((e) => {
      if (!(e instanceof ApiError)) throw e;
    });
  }
  revalidatePath("/developers");
  return {};
}, errorState);

const WEBHOOK_FIELDS = ["url", "events", "description", "environment"] as const;
export type WebhookState = FormState<{ url: string; events: string[]; description: string; environment: string }> & {
  created?: { id: string; url: string; environment: Environment; secret: string };
};

export const createWebhookAction = guardedAction(async (_prev: WebhookState, form: FormData): Promise<WebhookState> => {
  const account = await requireAccount();
  const url = formText(form, "url", 3000).trim();
  const description = formText(form, "description", 1000).trim();
  const environment = formText(form, "environment", 20);
  const events = form.getAll("events").map(String).filter((e) => (SUBSCRIBABLE_EVENTS as readonly string[]).includes(e));
  const values = { url, events, description, environment };
  const env = portalEnvironment(account, environment);
  if ("error" in env) return { values, errors: { environment: env.error } };
  if (events.length !== form.getAll("events").length) return { values, errors: { events: "Choose events from the list." } };
  const parsed = webhookCreateSchema.safeParse({ url, ...(events.length ? { events } : {}), ...(description ? { description } : {}) });
  if (!parsed.success) {
    const field = parsed.error.issues[0]?.path[0];
    return field === "description"
      ? { values, errors: { description: "The description may be at most 500 characters, without control characters." } }
      : { values, errors: { url: "Enter the destination's https:// URL (at most 2,000 characters)." } };
  }
  try {
    const hook = await createWebhook(await getDb(), portalAuth(account, env.environment), parsed.data);
    if (!hook.secret) throw new Error("createWebhook answered without the secret");
    revalidatePath("/developers");
    return { created: { id: hook.id, url: hook.url, environment: hook.environment, secret: hook.secret } };
  } catch (e) {
    if (e instanceof ApiError) return { values, errors: apiFieldErrors(e, WEBHOOK_FIELDS) };
    return { values, errors: { form: failure(e, "webhook registration") } };
  }
}, formErrorState);

export type TestEventState = { error?: string; sent?: string };

/** "Send test event": POST /api/v1/webhooks/{id}/test for the session's account (a webhook.test event to this endpoint only). */
export const sendTestEventAction = guardedAction(async (_prev: TestEventState, form: FormData): Promise<TestEventState> => {
  const account = await requireAccount();
  const id = form.get("id");
  const environment = form.get("environment");
  if (typeof id !== "string" || !WEBHOOK_ID_RE.test(id) || (environment !== "sandbox" && environment !== "live")) {
    return { error: "No such webhook destination." };
  }
  try {
    // Scoped to the session's account and the row's environment: another account's endpoint reads as not found.
    const evt = await sendTestEvent(await getDb(), portalAuth(account, environment), id);
    revalidatePath("/developers");
    return { sent: `Test event ${evt.id} queued. Its delivery shows under "Recent deliveries" in a moment (reload the page).` };
  } catch (e) {
    return { error: failure(e, "test event") };
  }
}, errorState);

export type ReplayState = { error?: string; sent?: string };

/** Resend one delivered (or failed) event to its endpoint, as POST /api/v1/webhooks/{id}/replay does. */
export const replayEventAction = guardedAction(async (_prev: ReplayState, form: FormData): Promise<ReplayState> => {
  const account = await requireAccount();
  const id = form.get("id");
  const environment = form.get("environment");
  const eventId = form.get("event_id");
  if (typeof id !== "string" || !WEBHOOK_ID_RE.test(id) || (environment !== "sandbox" && environment !== "live")
    || typeof eventId !== "string" || !EVENT_ID_RE.test(eventId)) {
    return { error: "No such delivery." };
  }
  try {
    await replayEvent(await getDb(), portalAuth(account, environment), id, { event_id: eventId });
    revalidatePath("/developers");
    return { sent: "Queued again, with the same webhook-id." };
  } catch (e) {
    return { error: failure(e, "replay") };
  }
}, errorState);

export type RotateState = { error?: string; rotated?: { id: string; url: string; environment: string; secret: string; oldUntil: string | null } };

/** A new signing secret, the old one signing beside it for the chosen overlap (POST /api/v1/webhooks/{id}/rotate-secret). */
export const rotateSecretAction = guardedAction(async (_prev: RotateState, form: FormData): Promise<RotateState> => {
  const account = await requireAccount();
  const id = form.get("id");
  const environment = form.get("environment");
  const overlap = form.get("overlap");
  if (typeof id !== "string" || !WEBHOOK_ID_RE.test(id) || (environment !== "sandbox" && environment !== "live")) {
    return { error: "No such webhook destination." };
  }
  if (!ROTATION_CHOICES.some(([v]) => v === overlap)) return { error: "Choose when the current secret stops." };
  try {
    const hook = await rotateWebhookSecret(await getDb(), portalAuth(account, environment), id, { expire_current_in_s: Number(overlap) });
    if (!hook.secret) throw new Error("rotateWebhookSecret answered without the secret");
    revalidatePath("/developers");
    return { rotated: { id: hook.id, url: hook.url, environment: hook.environment, secret: hook.secret, oldUntil: hook.previous_secret_expires_at } };
  } catch (e) {
    return { error: failure(e, "secret rotation") };
  }
}, errorState);

export const deleteWebhookAction = guardedAction(async (_prev: ConfirmActionState, form: FormData): Promise<ConfirmActionState> => {
  const account = await requireAccount();
  if (form.get("confirm") !== "yes") return unconfirmed("deleted");
  const id = form.get("id");
  const environment = form.get("environment");
  if (typeof id === "string" && WEBHOOK_ID_RE.test(id) && (environment === "sandbox" || environment === "live")) {
    await deleteWebhook(await getDb(), portalAuth(account, environment), id).catch((e) => {
      if (!(e instanceof ApiError)) throw e;
    });
  }
  revalidatePath("/developers");
  return {};
}, errorState);

export type PlanRequestState = { error?: string; sent?: string };

/** "Go live": ask an admin for a plan (lib/accounts/plan-requests.ts has the rules). */
export const requestPlanAction = guardedAction(async (_prev: PlanRequestState, form: FormData): Promise<PlanRequestState> => {
  const account = await requireAccount();
  try {
    const r = await requestPlan(await getDb(), account, { plan: formText(form, "plan", 20), note: formText(form, "note", 2000) });
    revalidatePath("/developers");
    return { sent: `Your request for the ${r.plan} plan was sent. An admin reviews it; we mailed you a copy.` };
  } catch (e) {
    if (e instanceof PlanRequestRefused) return { error: e.message };
    return { error: failure(e, "plan request") };
  }
}, errorState);

export type NameState = { saved?: string | null; error?: string; value?: string };

/** The organisation name certificates show as the account that made each statement (same rules as PATCH /api/v1/account). */
export const setNameAction = guardedAction(async (_prev: NameState, form: FormData): Promise<NameState> => {
  const account = await requireAccount();
  const value = String(form.get("name") ?? "").slice(0, 400);
  try {
    const out = await updateAccount(await getDb(), portalAuth(account, "sandbox"), { name: value.trim() === "" ? null : value });
    return { saved: out.name, value: out.name ?? "" };
  } catch (e) {
    if (e instanceof ApiError) return { error: e.message, value };
    throw e;
  }
}, errorState);
