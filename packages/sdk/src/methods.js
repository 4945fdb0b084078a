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
    /** Cached by the client: see PrsClient.jwks(). */
    jwks: "getJwks",
};
const everyOperationCovered = true;
void everyOperationCovered;
/** Every [namespace path, operationId] of the table, e.g. [["records", "create"], "createRecord"]. */
export function methodEntries(table = methodTable, prefix = []) {
    return Object.entries(table).flatMap(([k, v]) => typeof v === "string" ? [[[...prefix, k], v]] : methodEntries(v, [...prefix, k]));
}
