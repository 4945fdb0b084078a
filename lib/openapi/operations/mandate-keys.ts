import { ACCOUNT_ID_RE, MANDATE_KEY_ID_RE } from "@/lib/ids";
import {
  AUTH_CODES, BODY_CODES, bearer, errorResponses, jsonResponse, OTHER_METHODS, publicAccess, publicHeaders, ref, VALIDATION_CODES,
  type Paths,
} from "../shared";

const mandateKeyIdParam = {
  name: "key_id", in: "path", required: true, description: "The mandate key's id.", schema: { type: "string", pattern: MANDATE_KEY_ID_RE.source },
};

const accountIdParam = {
  name: "account_id", in: "path", required: true, description: "The owning account's id (the `account_id` a mandate signs).",
  schema: { type: "string", pattern: ACCOUNT_ID_RE.source },
};

/** Principals' mandate keys: registered and revoked with an API key, read back publicly. */
export function mandateKeyPaths(): Paths {
  return {
    "/api/v1/mandate-keys": {
      post: {
        operationId: "createMandateKey",
        tags: ["Mandates"],
        summary: "Register a mandate key",
        description:
          "Registers the public half of an Ed25519 key pair with which the principal signs agent mandates. `key_id` is yours " +
          "to choose and unique within your account (409 `mandate_key_exists` if this account already holds it, in either " +
          "environment, revoked keys included; another account may hold the same id for its own key, which never verifies " +
          "your mandates nor is shown as yours). `public_key` is base64url without padding of the 32 raw bytes (a JWK's `x`); it must be a canonical " +
          "point of Ed25519's prime-order subgroup, else 422 `invalid_public_key`. Private key material — a `d`, " +
          "`private_key`, `secret_key` or `seed` field, a 64-byte or PKCS#8 key, a PEM private key — is 422 " +
          "`private_key_not_accepted` and nothing is stored. The key belongs to the account and environment of the API " +
          "key (an `account_id` in the body is 422 `field_not_allowed`): a key registered with a live API key signs live " +
          "mandates only, one registered with a sandbox key sandbox mandates only. Body at most 16 KiB.",
        security: bearer,
        requestBody: { required: true, content: { "application/json": { schema: ref("MandateKeyCreate") } } },
        responses: {
          "201": jsonResponse("The registered key.", ref("MandateKey")),
          ...errorResponses([
            ...BODY_CODES, ...AUTH_CODES, ...VALIDATION_CODES, "field_not_allowed", "invalid_public_key",
            "private_key_not_accepted", "mandate_key_exists", ...OTHER_METHODS,
          ]),
        },
      },
      get: {
        operationId: "listMandateKeys",
        tags: ["Mandates"],
        summary: "List mandate keys",
        description: "The API key's account and environment only (a live API key lists the live keys), oldest first, revoked keys included.",
        security: bearer,
        responses: {
          "200": jsonResponse("The keys.", ref("MandateKeyList")),
          ...errorResponses([...AUTH_CODES, ...OTHER_METHODS]),
        },
      },
    },
    "/api/v1/mandate-keys/{key_id}": {
      delete: {
        operationId: "revokeMandateKey",
        tags: ["Mandates"],
        summary: "Revoke a mandate key",
        description:
          "The key stays published at /keys/{account_id}/{key_id} with status `revoked` and `revoked_at`; its id is never reused in this account. " +
          "Revoking a revoked key answers the same object (200) and changes nothing. A live API key revokes the account's " +
          "live keys, a sandbox key its sandbox keys; another account's or environment's key is 404, like an unknown one.",
        security: bearer,
        parameters: [mandateKeyIdParam],
        responses: {
          "200": jsonResponse("The key, revoked.", ref("MandateKey")),
          ...errorResponses([...AUTH_CODES, "mandate_key_not_found", ...OTHER_METHODS]),
        },
      },
    },
    "/keys/{account_id}/{key_id}": {
      get: {
        operationId: "getPublicMandateKey",
        tags: ["Public", "Mandates"],
        summary: "Read a mandate key back",
        description:
          "Public, no key. The key `key_id` of the account `account_id` (the `account_id` its mandates sign; an agent " +
          "record's signed status links it as `agent.key.url`), its status, the same key as a JWK, so anyone can check a " +
          "mandate signature — and its owner, named as every public answer names an account: `account.name_verified` is " +
          "true only for a reviewer-verified organisation (legal name and LEI under `account.organisation`); any other name " +
          "is the account's own word. Key ids are unique within an account only: another account's key of the same id is " +
          "another key. Revoked keys are still answered (status `revoked`). May be cached for 60 s.",
        security: publicAccess,
        parameters: [accountIdParam, mandateKeyIdParam],
        responses: {
          "200": jsonResponse("The key and its owner.", ref("PublicMandateKey"), {
            headers: { ...publicHeaders, "Cache-Control": { schema: { type: "string", const: "public, max-age=60, s-maxage=60" } } },
          }),
          ...errorResponses(["mandate_key_not_found", ...OTHER_METHODS], { headers: publicHeaders }),
        },
      },
    },
    "/keys/{key_id}": {
      get: {
        operationId: "getOwnMandateKey",
        tags: ["Mandates"],
        summary: "Read a mandate key back by its id (the specification's public address)",
        description:
          "The specification's public read-back. Key ids are unique within an account only. Without an API key: the key " +
          "and its owner named (as /keys/{account_id}/{key_id} answers, `public, max-age=60`) when exactly one account holds " +
          "the id; 409 `mandate_key_ambiguous` listing the accounts when several do — read it back with its account then. " +
          "With an API key: the caller's own key of that id (either environment), never cached by a shared cache.",
        security: [...bearer, {}],
        parameters: [mandateKeyIdParam],
        responses: {
          "200": jsonResponse("The key and its owner.", ref("PublicMandateKey"), {
            headers: {
              ...publicHeaders,
              "Cache-Control": { schema: { type: "string", enum: ["public, max-age=60, s-maxage=60", "private, no-store"] } },
            },
          }),
          ...errorResponses([...AUTH_CODES, "mandate_key_not_found", "mandate_key_ambiguous", ...OTHER_METHODS], { headers: publicHeaders }),
        },
      },
    },
  };
}
