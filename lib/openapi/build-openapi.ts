import { claimTypeDocs } from "./claim-type-docs";
import { accountPaths } from "./operations/account";
import { batchPaths } from "./operations/batch";
import { challengePaths } from "./operations/challenges";
import { credentialPaths } from "./operations/credentials";
import { lifecyclePaths } from "./operations/lifecycle";
import { lookupPaths } from "./operations/lookup";
import { mandateKeyPaths } from "./operations/mandate-keys";
import { metaPaths } from "./operations/meta";
import { sightingPaths } from "./operations/sightings";
import { organisationVerificationPaths } from "./operations/organisation-verification";
import { recordPaths } from "./operations/records";
import { statusPaths } from "./operations/status";
import { webhookPaths } from "./operations/webhooks";
import { watchPaths } from "./operations/watches";
import { OPERATION_SCOPES, type Scope } from "@/lib/accounts/scopes";
import { reusableComponents } from "./reusable-components";
import { schemaComponents } from "./schema-components";
import { jsonResponse, publicHeaders, ref, type JsonSchema, type Paths } from "./shared";
import { anonymousClass, type AnonymousClass } from "@/lib/http/anonymous-class";

export type { JsonSchema } from "./shared";

/**
 * The OpenAPI 3.1 document of the public API: each group of operations (operations/) brings
 * its paths, the schema components are generated from the zod schemas the handlers validate
 * with (requests) and the response schemas (answers). OpenAPI 3.1 schema objects are JSON
 * Schema 2020-12, which is what zod emits.
 */

export type OpenApiDocument = {
  openapi: "3.1.0";
  info: { title: string; version: string; description: string };
  servers: { url: string; description?: string }[];
  tags: { name: string; description: string }[];
  paths: Paths;
  components: {
    schemas: Record<string, JsonSchema>;
    securitySchemes: Record<string, JsonSchema>;
    parameters: Record<string, JsonSchema>;
    headers: Record<string, JsonSchema>;
  };
};

const LIMIT_OF: Record<AnonymousClass, string> = {
  record: "`RECORD_READ_RATE_LIMIT_PER_MINUTE` (1200)",
  directory: "`DIRECTORY_RATE_LIMIT_PER_MINUTE` (60)",
  log: "`LOG_RATE_LIMIT_PER_MINUTE` (1200)",
  public: "`PUBLIC_RATE_LIMIT_PER_MINUTE` (600)",
};

/**
 * The keyless endpoints counted by the anonymous allowances (lib/http/anonymous-class.ts, the
 * same function the server asks): a 429 `rate_limited` answer with Retry-After and the
 * RateLimit-* headers, and the allowance named in the description.
 */
function withAnonymousLimits(paths: Paths) {
  const header = (name: string) => ({ $ref: `#/components/headers/${name}` });
  for (const [p, item] of Object.entries(paths)) {
    const op = (item as Record<string, { description?: string; responses?: Record<string, unknown> }>).get;
    const cls = op && anonymousClass("GET", p.replace(/\{[^}]+\}/g, "x"));
    if (!op || !cls) continue;
    op.description = `${op.description ?? ""} Rate limited per client address (IPv6: per /64): ${LIMIT_OF[cls]} requests a minute, shared with the other ${cls === "public" ? "public documents and pages" : `${cls} endpoints`}; the answer carries \`RateLimit-Limit\`, \`RateLimit-Remaining\` and \`RateLimit-Reset\`, and past the allowance is 429 \`rate_limited\` with \`Retry-After\`.`.trim();
    op.responses = {
      ...op.responses,
      "429": jsonResponse("Too many requests from this client address. error.code: `rate_limited`.", ref("Error"), {
        headers: {
          ...publicHeaders, "RateLimit-Limit": header("RateLimit-Limit"), "RateLimit-Remaining": header("RateLimit-Remaining"),
          "RateLimit-Reset": header("RateLimit-Reset"), "Retry-After": header("Retry-After"),
        },
      }),
    };
  }
}

/**
 * Each keyed operation's scope (lib/accounts/scopes.ts, the table the routes check) as the
 * scope of its `bearerAuth` requirement, and named in its description. An operation that takes
 * a key but has no scope in the table is a mistake: the document is not built.
 */
function withScopes(paths: Paths) {
  for (const item of Object.values(paths)) {
    for (const op of Object.values(item) as unknown as { operationId: string; description?: string; security?: Record<string, string[]>[] }[]) {
      const keyed = op.security?.find((s) => "bearerAuth" in s);
      if (!keyed) continue;
      const scope = (OPERATION_SCOPES as Record<string, Scope>)[op.operationId];
      if (!scope) throw new Error(`${op.operationId} takes an API key but has no scope in OPERATION_SCOPES (lib/accounts/scopes.ts)`);
      // A new array: the operations share the `bearer` requirement object (lib/openapi/shared.ts).
      op.security = op.security!.map((s) => ("bearerAuth" in s ? { bearerAuth: [scope] } : s));
      const note = `Restricted keys need the \`${scope}\` scope (else 403 \`insufficient_scope\`).`;
      op.description = op.description ? `${op.description} ${note}` : note;
    }
  }
}

export function buildOpenApi(baseUrl: string): OpenApiDocument {
  const claims = claimTypeDocs();
  const { schemas, listParameters, eventListParameters, lookupParameters, checkParameters, sightingListParameters } = schemaComponents(claims);
  const paths: Paths = {
    ...recordPaths(claims, listParameters),
    ...batchPaths(claims),
    ...statusPaths(),
    ...credentialPaths(),
    ...lookupPaths(lookupParameters, checkParameters),
    ...lifecyclePaths(),
    ...webhookPaths(eventListParameters),
    ...mandateKeyPaths(),
    ...challengePaths(),
    ...accountPaths(),
    ...organisationVerificationPaths(),
    ...watchPaths(),
    ...metaPaths(),
    ...sightingPaths(sightingListParameters),
  };
  withAnonymousLimits(paths);
  withScopes(paths);

  return {
    openapi: "3.1.0",
    info: {
      title: "Proof Record Service API",
      version: "1.0.0",
      description:
        "Issues signed, verifiable records (certificates) stating a claim about a subject, and answers their public, " +
        "signed status. JSON over HTTPS, snake_case fields, RFC 3339 UTC timestamps. Every answer carries a Request-Id " +
        "header; every error has the same envelope (see Error). Signatures are Ed25519, base64url without padding, over " +
        "RFC 8785 canonical JSON; keys are published at /.well-known/jwks.json.",
    },
    servers: [{ url: baseUrl }],
    tags: [
      { name: "Records", description: "Issue and manage records (API key)." },
      { name: "Challenges", description: "Prove control of a domain or a wallet: request a challenge, answer it, then create the record (API key)." },
      { name: "Webhooks", description: "Signed event deliveries (Standard Webhooks) from the transactional outbox (API key)." },
      { name: "Mandates", description: "Principals' Ed25519 public keys for signing agent mandates; read back publicly, with their owner named, at /keys/{account_id}/{key_id}." },
      { name: "Public", description: "Keyless, CORS-enabled endpoints anyone can call." },
      { name: "Account", description: "The account behind the API key." },
      { name: "Watches", description: "Impersonation watches: be told when another account's record carries your name, domain, IBAN, wallet or LEI, or a look-alike (API key)." },
      { name: "Meta", description: "Service description and health." },
    ],
    paths,
    components: {
      schemas,
      securitySchemes: {
        bearerAuth: {
          type: "http",
          scheme: "bearer",
          bearerFormat: "prs_sandbox_… | prs_live_…",
          description:
            "Send `Authorization: Bearer <API key>`. Keys are `prs_sandbox_` or `prs_live_` followed by 32 base62 " +
            "characters, and the key decides the environment of everything it creates and sees. Sandbox keys are free " +
            "and their records are never verified; live keys need a confirmed email and an active plan. A key is shown " +
            "once; never put it in browser code, URLs or repositories.",
        },
        metricsToken: {
          type: "http",
          scheme: "bearer",
          description: "The operator's METRICS_TOKEN (not an API key), for GET /api/metrics only.",
        },
      },
      ...reusableComponents(),
    },
  };
}
