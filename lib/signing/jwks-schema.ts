import { z } from "zod";
import type { Assert, Out, SameKeys } from "@/lib/http/response-checks";
import { base64url } from "@/lib/http/response-primitives";
import type { publicJwks } from "./keys";

/** The published signing keys: the contract of publicJwks (./keys). */

export const jwkSchema = z
  .strictObject({
    kty: z.literal("OKP"),
    crv: z.literal("Ed25519"),
    x: base64url.describe("The 32-byte public key, base64url."),
    kid: z.string(),
    use: z.literal("sig"),
    alg: z.literal("EdDSA"),
  })
  .meta({ id: "Jwk" });

export const jwksSchema = z
  .strictObject({ keys: z.array(jwkSchema) })
  .meta({ id: "Jwks", description: "Published Ed25519 signing keys; retired keys stay listed so old signatures verify." });

export type _JwksSchemaChecks = [Assert<SameKeys<ReturnType<typeof publicJwks>["keys"][number], Out<typeof jwkSchema>>>];
