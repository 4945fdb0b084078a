import { z } from "zod";
import { checksSchema } from "@/lib/trust/check-schema";
import type { Assert, Out, SameKeys } from "@/lib/http/response-checks";
import type { didDocument } from "./did";
import type { DataIntegrityProof } from "./eddsa-jcs-2022";
import type { recordCredential } from "./record-credential";

/** The answers of lib/vc: a record's credential, a status list credential, the DID document. */

const url = z.string().describe("An absolute URL.");
const did = z.string().regex(/^did:web:/).describe(
  "The service's DID: `did:web:<public host>` (a port as `%3A<port>`); for sandbox records `did:web:<public host>:sandbox`.",
);

export const dataIntegrityProofSchema = z
  .strictObject({
    "@context": z.array(z.string()).describe("The credential's `@context`, part of the signed proof configuration."),
    type: z.literal("DataIntegrityProof"),
    cryptosuite: z.literal("eddsa-jcs-2022"),
    created: z.string().describe("When the proof was made (XML Schema dateTime, UTC)."),
    verificationMethod: z.string().describe(
      "`<DID>#<kid>`: the key in /.well-known/did.json (and, by `kid`, in the JWKS); for sandbox records a `sbx-…` key of /sandbox/did.json, in no JWKS.",
    ),
    proofPurpose: z.literal("assertionMethod"),
    proofValue: z.string().regex(/^z[1-9A-HJ-NP-Za-km-z]+$/).describe("Ed25519 signature, multibase base58btc."),
  })
  .meta({ id: "DataIntegrityProof", description: "W3C Data Integrity proof, cryptosuite eddsa-jcs-2022 (RFC 8785 canonical JSON)." });

export const statusEntrySchema = z
  .strictObject({
    id: url,
    type: z.literal("BitstringStatusListEntry"),
    statusPurpose: z.enum(["revocation", "suspension"]),
    statusListIndex: z.string().regex(/^[0-9]+$/),
    statusListCredential: url.describe("GET /api/v1/status-lists/{purpose}/{list}; for sandbox records /sandbox/status-lists/{purpose}/{list}."),
  })
  .meta({ id: "BitstringStatusListEntry" });

export const recordCredentialSchema = z
  .strictObject({
    "@context": z.array(url).describe("`https://www.w3.org/ns/credentials/v2`, then the PRS context `<base>/ns/credentials/v1`."),
    id: url,
    type: z.tuple([z.literal("VerifiableCredential"), z.literal("ProofRecordCredential")]),
    name: z.string().describe("`Proof record PRS-…`; for a sandbox record `Sandbox record PRS-… (test data, not verified)`."),
    issuer: did,
    validFrom: z.string().describe("The record's `issued_at`."),
    validUntil: z.string().optional().describe("The record's `expires_at`."),
    credentialSubject: z.strictObject({
      type: z.literal("ProofRecord"),
      verification_id: z.string(),
      environment: z.enum(["sandbox", "live"]),
      subject: z.string(),
      claim_type: z.string(),
      claim: z.string(),
      evidence_level: z.string(),
      account_name: z.string().optional().describe("The issuing account's name, when it set one."),
      account_name_verified: z.boolean().optional().describe("Beside account_name: true only when the account is a verified organisation and the name its legal name; false: self-declared."),
      checks: checksSchema.describe("What was checked, by whom, on what (as on the record)."),
      certificate_url: url,
    }),
    credentialStatus: z.array(statusEntrySchema).length(2),
    proof: dataIntegrityProofSchema,
  })
  .meta({ id: "RecordCredential", description: "A record as a W3C Verifiable Credential (Data Model 2.0), secured with eddsa-jcs-2022." });

export const statusListCredentialSchema = z
  .strictObject({
    "@context": z.tuple([z.literal("https://www.w3.org/ns/credentials/v2")]),
    id: url,
    type: z.tuple([z.literal("VerifiableCredential"), z.literal("BitstringStatusListCredential")]),
    issuer: did,
    validFrom: z.string().describe("When this list was built."),
    credentialSubject: z.strictObject({
      id: url,
      type: z.literal("BitstringStatusList"),
      statusPurpose: z.enum(["revocation", "suspension"]),
      encodedList: z.string().regex(/^u[A-Za-z0-9_-]+$/).describe("GZIP of the 131,072-bit list, multibase base64url."),
      ttl: z.number().int().describe("Milliseconds a copy may be relied on before fetching it again."),
    }),
    proof: dataIntegrityProofSchema,
  })
  .meta({ id: "StatusListCredential", description: "A W3C Bitstring Status List credential, secured with eddsa-jcs-2022." });

export const multikeySchema = z
  .strictObject({
    id: z.string(),
    type: z.literal("Multikey"),
    controller: did,
    publicKeyMultibase: z.string().regex(/^z6Mk/).describe("base58btc of 0xed01 ‖ the 32-byte Ed25519 key."),
  })
  .meta({ id: "Multikey" });

export const didDocumentSchema = z
  .strictObject({
    "@context": z.array(url),
    id: did,
    verificationMethod: z.array(multikeySchema),
    assertionMethod: z.array(z.string()),
  })
  .meta({ id: "DidDocument", description: "The did:web document: every published signing key as a Multikey." });

type Credential = ReturnType<typeof recordCredential>;
export type _VcSchemaChecks = [
  Assert<SameKeys<Credential & { proof: DataIntegrityProof }, Out<typeof recordCredentialSchema>>>,
  Assert<SameKeys<Credential["credentialSubject"], Out<typeof recordCredentialSchema>["credentialSubject"]>>,
  Assert<SameKeys<DataIntegrityProof, Out<typeof dataIntegrityProofSchema>>>,
  Assert<SameKeys<Awaited<ReturnType<typeof didDocument>>, Out<typeof didDocumentSchema>>>,
];
