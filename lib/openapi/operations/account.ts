import { AUTH_CODES, BODY_CODES, bearer, errorResponses, jsonResponse, OTHER_METHODS, ref, VALIDATION_CODES, type Paths } from "../shared";

/** The account behind the API key. */
export function accountPaths(): Paths {
  return {
    "/api/v1/account": {
      get: {
        operationId: "getAccount",
        tags: ["Account"],
        summary: "The account's public profile",
        description: "The name and verified domains that certificates, signed statuses and record objects show as the account that made each statement.",
        security: bearer,
        responses: {
          "200": jsonResponse("The account.", ref("Account")),
          ...errorResponses([...AUTH_CODES, ...OTHER_METHODS]),
        },
      },
      patch: {
        operationId: "updateAccount",
        tags: ["Account"],
        summary: "Set the organisation name",
        description:
          "Sets (or, with null, removes) the organisation name shown as the account that made each statement. It is the account's own word (`name_verified: false`): every public answer shows it as self-declared, beside the domains it proved. A verified organisation's name is its legal name and is locked (409 `name_locked`) until a new organisation verification. Records issued from now on carry it in their signed payload; the public views of existing records show the new name at once.",
        security: bearer,
        requestBody: { required: true, content: { "application/json": { schema: ref("AccountUpdate") } } },
        responses: {
          "200": jsonResponse("The account.", ref("Account")),
          ...errorResponses([...BODY_CODES, ...AUTH_CODES, ...VALIDATION_CODES, "name_locked", ...OTHER_METHODS]),
        },
      },
    },
    "/api/v1/api-keys": {
      post: {
        operationId: "createApiKey",
        tags: ["Account"],
        summary: "Create an API key, optionally restricted",
        description:
          "A new key of the calling key's account and environment. `scopes` restricts it to those operations (each operation names " +
          "its scope; `records:write` includes `records:read`); omitted, it may do what the calling key may. A restricted key can " +
          "only make keys within its own scopes (403 `insufficient_scope`). Live keys need a confirmed email and a plan. The secret " +
          "is in this answer only.",
        security: bearer,
        requestBody: { required: true, content: { "application/json": { schema: ref("ApiKeyCreate") } } },
        responses: {
          "201": jsonResponse("The key, with its secret (shown once).", ref("ApiKeyCreated")),
          ...errorResponses([...BODY_CODES, ...AUTH_CODES, ...VALIDATION_CODES, "forbidden", "plan_inactive", ...OTHER_METHODS]),
        },
      },
      get: {
        operationId: "listApiKeys",
        tags: ["Account"],
        summary: "List the environment's API keys",
        description: "Every key of the calling key's account and environment, newest first, revoked ones too: display form, scopes, last use. Never a secret.",
        security: bearer,
        responses: {
          "200": jsonResponse("The keys.", ref("ApiKeyList")),
          ...errorResponses([...AUTH_CODES, ...OTHER_METHODS]),
        },
      },
    },
    "/api/v1/api-keys/{id}": {
      delete: {
        operationId: "revokeApiKey",
        tags: ["Account"],
        summary: "Revoke an API key",
        description:
          "Revokes a key of the calling key's account and environment (itself included): it is refused from the next request, " +
          "on every instance. A restricted key may only revoke keys within its own scopes (403 `insufficient_scope`). Another " +
          "account's or environment's key is 404.",
        security: bearer,
        parameters: [{ name: "id", in: "path", required: true, schema: { type: "string", pattern: "^key_[0-9a-z]{1,64}$" } }],
        responses: {
          "200": jsonResponse("The key, revoked.", ref("ApiKey")),
          ...errorResponses([...AUTH_CODES, "api_key_not_found", ...OTHER_METHODS]),
        },
      },
    },
    "/api/v1/usage": {
      get: {
        operationId: "getUsage",
        tags: ["Account"],
        summary: "This month's usage",
        description: "Live records issued and reviewed verifications this calendar month (UTC) against the plan's allowance.",
        security: bearer,
        responses: {
          "200": jsonResponse("Usage.", ref("Usage")),
          ...errorResponses([...AUTH_CODES, ...OTHER_METHODS]),
        },
      },
    },
  };
}
