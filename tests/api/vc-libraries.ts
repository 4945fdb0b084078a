/**
 * The W3C credentials checked the way a third party would, with Digital Bazaar's maintained
 * libraries (not the service's code): @digitalbazaar/vc verifies the credential and its
 * eddsa-jcs-2022 proof (@digitalbazaar/data-integrity, @digitalbazaar/eddsa-jcs-2022-cryptosuite,
 * @digitalbazaar/ed25519-multikey), @digitalbazaar/vc-bitstring-status-list checks the status
 * lists. Everything is resolved by a static document loader — no network.
 */
import { contexts as credentialContexts } from "@digitalbazaar/credentials-context";
import { DataIntegrityProof } from "@digitalbazaar/data-integrity";
import { createVerifyCryptosuite } from "@digitalbazaar/eddsa-jcs-2022-cryptosuite";
import { checkStatus } from "@digitalbazaar/vc-bitstring-status-list";
import * as vc from "@digitalbazaar/vc";

export type Documents = Record<string, unknown>;

/**
 * A loader over fixed documents: the VC 2.0 context from the library's package, and what the
 * caller hands in (the PRS context, the DID document, status list credentials). A DID URL
 * with a fragment resolves to that verification method of the DID document.
 */
export function staticLoader(docs: Documents) {
  return async (url: string) => {
    const ctx = credentialContexts.get(url);
    if (ctx) return { contextUrl: null, documentUrl: url, document: ctx };
    if (url in docs) return { contextUrl: null, documentUrl: url, document: structuredClone(docs[url]) };
    const [did, fragment] = url.split("#");
    const didDoc = docs[did!] as { verificationMethod: { id: string }[] } | undefined;
    const vm = fragment && didDoc?.verificationMethod.find((m) => m.id === url);
    if (vm) return { contextUrl: null, documentUrl: url, document: { "@context": "https://w3id.org/security/multikey/v1", ...vm } };
    throw new Error(`static document loader: ${url} is not loaded`);
  };
}

const suite = () => new DataIntegrityProof({ cryptosuite: createVerifyCryptosuite() });

/** The credential's proof and its status, as @digitalbazaar/vc verifies them (with the Bitstring Status List check). */
export async function verifyWithLibraries(credential: unknown, docs: Documents, now?: Date) {
  const documentLoader = staticLoader(docs);
  return vc.verifyCredential({
    credential: structuredClone(credential), suite: suite(), documentLoader, now,
    checkStatus: (o: Record<string, unknown>) => checkStatus({ ...o, suite: suite(), documentLoader }),
  }) as Promise<{ verified: boolean; error?: unknown; statusResult?: { verified: boolean; results?: { status: boolean; credentialStatus: { statusPurpose: string } }[] } }>;
}

/** Each status purpose of the credential → is its bit set, per the library (throws when a list does not verify). */
export async function statusBits(credential: unknown, docs: Documents): Promise<Record<string, boolean>> {
  const r = await checkStatus({ credential: structuredClone(credential), documentLoader: staticLoader(docs), suite: suite() }) as {
    verified: boolean; error?: Error; results?: { status: boolean; credentialStatus: { statusPurpose: string } }[];
  };
  if (!r.verified) throw r.error ?? new Error("status check failed");
  return Object.fromEntries(r.results!.map((x) => [x.credentialStatus.statusPurpose, x.status]));
}
