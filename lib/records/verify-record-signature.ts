import type { Db } from "@/lib/db/client";
import { canonicalJson, sha256Hex, verifyJson } from "@/lib/signing/canonical";
import { getPublicRecord } from "./get-record";

/** Re-check a stored record signature against the published key. An answer, not an error. */
export async function verifyRecordSignature(db: Db, id: string) {
  const row = await getPublicRecord(db, id);
  if (!row || !row.signedPayload || !row.signingKeyId || !row.signature) return null;
  const hashOk = sha256Hex(canonicalJson(row.signedPayload)) === row.payloadSha256;
  const sigOk = verifyJson(row.signingKeyId, row.signedPayload, row.signature);
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
