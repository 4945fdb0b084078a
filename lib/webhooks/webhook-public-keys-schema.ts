import { z } from "zod";
import type { Assert, Out, SameKeys } from "@/lib/http/response-checks";
import type { webhookPublicKeys } from "./webhook-public-keys";

/** The keys that sign webhooks (`v1a`): the contract of ./webhook-public-keys. */

export const webhookPublicKeysSchema = z
  .strictObject({
    keys: z.array(
      z.strictObject({
        kid: z.string().describe("The key id, as in /.well-known/jwks.json and a delivery's `webhook-key-id` header."),
        public_key: z
          .string()
          .regex(/^whpk_[A-Za-z0-9+/]{43}=$/)
          .describe("`whpk_` + base64 of the 32-byte Ed25519 public key (Standard Webhooks)."),
      }),
    ),
  })
  .meta({ id: "WebhookPublicKeys", description: "The published Ed25519 keys, in Standard Webhooks' form; retired keys stay listed." });

export type _WebhookPublicKeysChecks = [
  Assert<SameKeys<Awaited<ReturnType<typeof webhookPublicKeys>>["keys"][number], Out<typeof webhookPublicKeysSchema>["keys"][number]>>,
];
