import { z } from "zod";
import { accountProfileSchema } from "@/lib/accounts/account-schema";
import type { Assert, Fits, Out, SameKeys } from "@/lib/http/response-checks";
import { base64url, environmentSchema, timestampSchema } from "@/lib/http/response-primitives";
import { MANDATE_KEY_ID_RE } from "@/lib/ids";
import { jwkSchema } from "@/lib/signing/jwks-schema";
import type { serializeMandateKey, serializePublicMandateKey } from "./manage-mandate-keys";

/** Mandate keys, as their owner and as anyone sees them: the contract of serializeMandateKey / serializePublicMandateKey (./manage-mandate-keys). */

const mandateKeyFields = {
  object: z.literal("mandate_key"),
  key_id: z.string().regex(MANDATE_KEY_ID_RE).describe("The owner's name for the key, unique within its account."),
  algorithm: z.literal("Ed25519"),
  public_key: base64url.length(43).describe("base64url (no padding) of the 32 raw Ed25519 public-key bytes."),
  environment: environmentSchema,
  status: z.enum(["active", "revoked"]).describe("A revoked key stays published so that old mandates can still be judged."),
  created_at: timestampSchema,
  revoked_at: timestampSchema.nullable(),
};

export const mandateKeySchema = z.strictObject(mandateKeyFields).meta({ id: "MandateKey" });

export const mandateKeyListSchema = z
  .strictObject({ object: z.literal("list"), data: z.array(mandateKeySchema), has_more: z.boolean() })
  .meta({ id: "MandateKeyList" });

export const publicMandateKeySchema = z
  .strictObject({
    ...mandateKeyFields,
    account_id: z.string().describe("The owning account's id: the `account_id` its mandates sign. Key ids are unique within an account only."),
    account: accountProfileSchema.describe(
      "Who holds the key: a verified organisation's legal name and LEI (`name_verified: true`), else the account's own, unverified name (`name_verified: false`).",
    ),
    jwk: jwkSchema.describe("The same key as a JWK (kid = key_id), for JOSE libraries."),
  })
  .meta({ id: "PublicMandateKey", description: "A mandate key as anyone may read it, with its owner named as every public answer names an account." });

export type _MandateKeySchemaChecks = [
  Assert<SameKeys<ReturnType<typeof serializeMandateKey>, Out<typeof mandateKeySchema>>>,
  Assert<Fits<ReturnType<typeof serializeMandateKey>, Out<typeof mandateKeySchema>>>,
  Assert<SameKeys<ReturnType<typeof serializePublicMandateKey>, Out<typeof publicMandateKeySchema>>>,
  Assert<SameKeys<ReturnType<typeof serializePublicMandateKey>["jwk"], Out<typeof jwkSchema>>>,
];
