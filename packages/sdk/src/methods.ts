// Where each operation of the OpenAPI document lives on the client: namespace, method name
// and operationId. The operation's method, path, parameters and body come from the
// generated table (generated/operations.ts), so covering a new operation is one line here.
// A missing or unknown operationId fails the type check below and test/coverage.test.ts.
import type { OperationId } from "./generated/operations.js";

export const methodTable = {
  records: {
    create: "createRecord",
    createBatch: "createRecordBatch",
    list: "listRecords",
    get: "getRecord",
    status: "getRecordStatus",
    signature: "checkRecordSignature",
    log: "getRecordLog",
    history: "getRecordHistory",
    credential: "getRecordCredential",
    lifecycle: "changeRecordLifecycle",
    refreshEvidence: "refreshRecordEvidence",
    setPrincipal: "changeRecordPrincipal",
  },
  challenges: {
    domain: "createDomainChallenge",
    wallet: "createWalletChallenge",
  },
  webhooks: {
    create: "createWebhook",
    list: "listWebhooks",
    delete: "deleteWebhook",
    test: "testWebhook",
    enable: "enableWebhook",
    deliveries: "listWebhookDeliveries",
    replay: "replayWebhookEvent",
    rotateSecret: "rotateWebhookSecret",
    publicKeys: "getWebhookPublicKeys",
  },
  events: {
    list: "listEvents",
    get: "getEvent",
  },
  watches: {
    create: "createWatch",
    list: "listWatches",
    delete: "deleteWatch",
  },
  mandateKeys: {
    create: "createMandateKey",
    list: "listMandateKeys",
    revoke: "revokeMandateKey",
    getPublic: "getPublicMandateKey",
    get: "getOwnMandateKey",
  },
  apiKeys: {
    create: "createApiKey",
    list: "listApiKeys",
    revoke: "revokeApiKey",
  },
  account: {
    get: "getAccount",
    update: "updateAccount",
    applyForOrganisationVerification: "applyForOrganisationVerification",
    organisationVerification: "getOrganisationVerification",
  },
  files: {
    /** Multipart: pass a FormData with one `file` part. */
    upload: "uploadFile",
    get: "getFile",
  },
  meta: {
    openapi: "getOpenApi",
    health: "getHealth",
    readiness: "getReadiness",
    liveness: "getLiveness",
    metrics: "getMetrics",
  },
  credentials: {
    statusList: "getStatusList",
    didDocument: "getDidDocument",
  },
  lookup: "lookup",
  check: "check",
  usage: "getUsage",
  /** Where the account's embed badges were loaded (issue 31). */
  badgeSightings: {
    list: "listBadgeSightings",
  },
  /** Cached by the client: see PrsClient.jwks(). */
  jwks: "getJwks",
} as const satisfies Record<string, OperationId | Record<string, OperationId>>;

type Leaves<T> = T extends string ? T : { [K in keyof T]: Leaves<T[K]> }[keyof T];
/** The operationIds the client has a method for. */
export type CoveredOperationId = Leaves<typeof methodTable>;

// Every operation of the document has a method: this fails to compile while one is missing,
// naming it ("… is not assignable to type 'never'").
type Missing = Exclude<OperationId, CoveredOperationId>;
const everyOperationCovered: [Missing] extends [never] ? true : Missing = true;
void everyOperationCovered;

/** Every [namespace path, operationId] of the table, e.g. [["records", "create"], "createRecord"]. */
export function methodEntries(table: object = methodTable, prefix: string[] = []): [string[], OperationId][] {
  return Object.entries(table).flatMap(([k, v]): [string[], OperationId][] =>
    typeof v === "string" ? [[[...prefix, k], v as OperationId]] : methodEntries(v as object, [...prefix, k]));
}
