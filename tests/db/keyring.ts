import fs from "node:fs";
import path from "node:path";
import * as jose from "jose";

/** The process-wide caches of lib/signing: the keyring read from the keys file, and the published key set. */
export const signingGlobals = globalThis as unknown as { __prsKeyring?: unknown; __prsPublished?: unknown };

/** A fresh Ed25519 key under `kid`, as a keys file (DATA_DIR/signing-keys.json) holds it. */
export async function newKey(kid: string) {
  const { privateKey } = await jose.generateKeyPair("EdDSA", { crv: "Ed25519", extractable: true });
  const jwk = await jose.exportJWK(privateKey);
  return { kid, kty: "OKP", crv: "Ed25519", d: jwk.d!, x: jwk.x! };
}

/** This process becomes an instance holding `held` (the last one newest) in the keys file of `dataDir`. */
export function holdKeys(dataDir: string, held: { kid: string }[]) {
  fs.writeFileSync(path.join(dataDir, "signing-keys.json"), JSON.stringify(held));
  signingGlobals.__prsKeyring = undefined;
}
