import { z } from "zod";
import type { Assert, Out, SameKeys } from "@/lib/http/response-checks";
import { environmentSchema, timestampSchema } from "@/lib/http/response-primitives";
import type { createApiKeyForKey, listApiKeysForKey, revokeApiKeyForKey } from "./api-keys-api";
import { SCOPES } from "./scopes";

/** API keys as the API shows them: the contract of ./api-keys-api. */
const apiKeyFields = {
  object: z.literal("api_key"),
  id: z.string().regex(/^key_/),
  environment: environmentSchema,
  display: z.string().describe("The key's prefix and last four characters (`prs_live_…Wx3k`): all that is kept of the secret."),
  scopes: z.array(z.enum(SCOPES)).nullable().describe("What the key may do; null: unrestricted."),
  created_at: timestampSchema,
  last_used_at: timestampSchema.nullable(),
  revoked_at: timestampSchema.nullable(),
};

export const apiKeySchema = z.strictObject(apiKeyFields).meta({ id: "ApiKey" });

export const apiKeyCreatedSchema = z
  .strictObject({ ...apiKeyFields, key: z.string().regex(/^prs_(sandbox|live)_/).describe("The secret: shown in this answer only.") })
  .meta({ id: "ApiKeyCreated" });

export const apiKeyListSchema = z
  .strictObject({ object: z.literal("list"), data: z.array(apiKeySchema), has_more: z.boolean() })
  .meta({ id: "ApiKeyList" });

export type _ApiKeySchemaChecks = [
  Assert<SameKeys<Awaited<ReturnType<typeof createApiKeyForKey>>, Out<typeof apiKeyCreatedSchema>>>,
  Assert<SameKeys<Awaited<ReturnType<typeof listApiKeysForKey>>["data"][number], Out<typeof apiKeySchema>>>,
  Assert<SameKeys<Awaited<ReturnType<typeof revokeApiKeyForKey>>, Out<typeof apiKeySchema>>>,
];
