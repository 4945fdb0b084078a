import type { Db } from "@/lib/db/client";
import { publishedJwks } from "@/lib/signing/published-keys";
import { whpk } from "./webhook-signature";

/**
 * The keys behind `v1a` webhook signatures in Standard Webhooks' form (`whpk_…`): the same
 * published set, read from the same table, as /.well-known/jwks.json.
 */
export async function webhookPublicKeys(db: Db) {
  const { keys } = await publishedJwks(db);
  return { keys: keys.map((k) => ({ kid: k.kid, public_key: whpk(k.x) })) };
}
