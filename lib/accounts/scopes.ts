import { ApiError } from "@/lib/http/errors";

/**
 * What a restricted API key may do (issue 30). A key with no scopes (`null`: every key made
 * before scopes, and any made without choosing) may do everything; a restricted key may do
 * exactly what its scopes name. `records:write` includes `records:read` (a writer reads what it
 * wrote), as a resource's write permission does at Stripe; the others stand alone.
 */
export const SCOPES = ["records:read", "records:write", "lifecycle", "challenges", "webhooks", "mandate_keys", "watches", "account"] as const;
export type Scope = (typeof SCOPES)[number];

export const SCOPE_DESCRIPTIONS: Record<Scope, string> = {
  "records:read": "Read records, their list and uploaded files",
  "records:write": "Create records and batches, upload files, refresh evidence, link principals (includes records:read)",
  lifecycle: "Suspend, reinstate, revoke and supersede records",
  challenges: "Start domain and wallet challenges",
  webhooks: "Manage webhook endpoints; read, replay and test events",
  mandate_keys: "Register, list and revoke mandate keys",
  watches: "Manage impersonation watches; read their matches and badge sightings",
  account: "Read and change the account, its usage and organisation verification; create API keys",
};

/** The scope each keyed operation needs, by OpenAPI operationId: the one table the routes and the document read. */
export const OPERATION_SCOPES = {
  listRecords: "records:read",
  getRecord: "records:read",
  getFile: "records:read",
  createRecord: "records:write",
  createRecordBatch: "records:write",
  refreshRecordEvidence: "records:write",
  changeRecordPrincipal: "records:write",
  uploadFile: "records:write",
  changeRecordLifecycle: "lifecycle",
  createDomainChallenge: "challenges",
  createWalletChallenge: "challenges",
  createWebhook: "webhooks",
  listWebhooks: "webhooks",
  deleteWebhook: "webhooks",
  testWebhook: "webhooks",
  replayWebhookEvent: "webhooks",
  rotateWebhookSecret: "webhooks",
  enableWebhook: "webhooks",
  listWebhookDeliveries: "webhooks",
  listEvents: "webhooks",
  getEvent: "webhooks",
  createMandateKey: "mandate_keys",
  listMandateKeys: "mandate_keys",
  revokeMandateKey: "mandate_keys",
  getOwnMandateKey: "mandate_keys",
  getAccount: "account",
  updateAccount: "account",
  getUsage: "account",
  applyForOrganisationVerification: "account",
  getOrganisationVerification: "account",
  createApiKey: "account",
  listApiKeys: "account",
  revokeApiKey: "account",
  // Badge sightings (issue 31)
  listBadgeSightings: "watches",
  // Impersonation watches (issue 31)
  createWatch: "watches",
  listWatches: "watches",
  deleteWatch: "watches",
} as const satisfies Record<string, Scope>;
export type KeyedOperation = keyof typeof OPERATION_SCOPES;

/** The scopes a key's list grants (null: all of them). */
export function grantedScopes(scopes: readonly Scope[] | null): Set<Scope> {
  if (scopes === null) return new Set(SCOPES);
  const granted = new Set<Scope>(scopes);
  if (granted.has("records:write")) granted.add("records:read");
  return granted;
}

/** 403 insufficient_scope, naming the scope, unless the key's scopes grant `operation`'s. */
export function requireScope(scopes: readonly Scope[] | null, operation: KeyedOperation): void {
  const needed = OPERATION_SCOPES[operation];
  if (grantedScopes(scopes).has(needed)) return;
  throw new ApiError(
    "insufficient_scope",
    `This API key may not do this: it needs the '${needed}' scope, and has ${scopes!.length ? scopes!.map((s) => `'${s}'`).join(", ") : "none"}.`,
    undefined, undefined, { "WWW-Authenticate": `Bearer error="insufficient_scope", scope="${needed}"` },
  );
}

/**
 * A key's scopes as asked for: a list of known scopes, each once, in SCOPES order; `null` (or
 * absent) for an unrestricted key. A key may only make keys whose scopes its own grant (no
 * widening), which `within` checks.
 */
export function normaliseScopes(asked: readonly Scope[] | null | undefined, within: readonly Scope[] | null = null): Scope[] | null {
  if (asked === null || asked === undefined) {
    if (within !== null) throw widening(within);
    return null;
  }
  const set = new Set(asked);
  const out = SCOPES.filter((s) => set.has(s));
  const granted = grantedScopes(within);
  if (out.some((s) => !granted.has(s))) throw widening(within!);
  return out;
}

function widening(own: readonly Scope[]) {
  return new ApiError(
    "insufficient_scope",
    `A restricted key can only make keys within its own scopes (${own.map((s) => `'${s}'`).join(", ") || "none"}).`,
    "scopes",
  );
}
