import { sharedLru } from "@/lib/cache/lru";
import type { Db } from "@/lib/db/client";
import { canonicalJson, sha256Hex, verifyJson } from "@/lib/signing/canonical";
import { getPublicRecord } from "@/lib/record-model/get-record";

/**
 * Checks already made, by key id, signature and payload digest: a record's signed payload,
 * signature and key never change once issued, so neither does the check's result (the hash
 * is still recomputed: it is what ties the stored payload to the cached check).
 */
const checked = sharedLru<string, boolean>("signature-checks", 10_000);

/** Re-check a stored record signature against the published key. An answer, not an error. */
export async function verifyRecordSignature(db: Db, id: string) {
  const row = await getPublicRecord(db, id);
  if (!row || !row.signedPayload || !row.signingKeyId || !row.signature) return null;
  const digest = sha256Hex(canonicalJson(row.signedPayload));
  const hashOk = digest === row.payloadSha256;
  const key = `${row.signingKeyId} ${row.signature} ${digest}`;
  let sigOk = checked.get(key);
  if (sigOk === undefined) {
    sigOk = verifyJson(row.signingKeyId, row.signedPayload, row.signature);
    checked.set(key, sigOk);
  }
  return {
    verification_id: row.id,
    valid: hashOk && sigOk,
    algorithm: "Ed25519",
    canonicalization: "RFC8785",
    signing_key_id: row.signingKeyId,
    payload_sha256: row.payloadSha256,
    signature: row.signature,
    signed_payload: row.signedPayload,
    checked_at: new Date().toISOString(),
  };
}
