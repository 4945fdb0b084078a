import { gunzipSync, gzipSync } from "node:zlib";
import bs58 from "bs58";
import jsonld from "jsonld";
import { describe, expect, it } from "vitest";
import { baseUrl, call, issue, newAccount, newLiveAccount } from "../helpers";
import { staticLoader, statusBits, verifyWithLibraries, type Documents } from "./vc-libraries";

const didOfServer = () => `did:web:${new URL(baseUrl()).host.replace(":", "%3A")}`;
const sandboxDid = () => `${didOfServer()}:sandbox`;

/** did:web resolution: `did:web:<host>` → /.well-known/did.json, `did:web:<host>:<path…>` → /<path…>/did.json. */
const didPath = (did: string) => {
  const [, ...rest] = did.slice("did:web:".length).split(":");
  return rest.length ? `/${rest.map(decodeURIComponent).join("/")}/did.json` : "/.well-known/did.json";
};

/** A DID document, fetched from where its DID resolves. */
async function resolveDid(did: string) {
  const r = await call("GET", didPath(did));
  expect(r.status, did).toBe(200);
  expect(r.headers.get("content-type")).toBe("application/did+json");
  expect(r.body.id).toBe(did);
  return r.body;
}

/**
 * What a verifier holds: the PRS context, the DID document and the status lists, fetched from
 * the server now. The DID document is the credential's issuer's, unless the verifier trusts
 * only `trusted` (then it holds that DID's document and nothing of any other issuer).
 */
async function documentsFor(credential: any, trusted: string = credential.issuer): Promise<Documents> {
  const docs: Documents = {};
  const ctx = await fetch(credential["@context"][1]);
  expect(ctx.status).toBe(200);
  expect(ctx.headers.get("content-type")).toMatch(/^application\/ld\+json/);
  docs[credential["@context"][1]] = await ctx.json();
  const did = await resolveDid(trusted);
  docs[did.id] = did;
  for (const s of credential.credentialStatus) {
    const list = await fetch(s.statusListCredential);
    expect(list.status, s.statusListCredential).toBe(200);
    docs[s.statusListCredential] = await list.json();
  }
  return docs;
}

async function credentialOf(id: string) {
  const r = await call("GET", `/api/v1/records/${id}/vc`);
  expect(r.status, r.text).toBe(200);
  return r;
}

const lifecycle = async (key: string, id: string, operation: string) => {
  const r = await call("POST", `/api/v1/records/${id}/lifecycle`, { key, body: { operation, reason: `The record is ${operation}d for the test.` } });
  expect(r.status, r.text).toBe(200);
};

describe("a record as a W3C Verifiable Credential (eddsa-jcs-2022), checked with Digital Bazaar's libraries", () => {
  it("is the record's public view, issued by the service's did:web, and verifies with the published key", async () => {
    const a = await newLiveAccount();
    await call("PATCH", "/api/v1/account", { key: a.liveKey, body: { name: "Credential Holder Ltd" } });
    const rec = await issue(a.liveKey, { subject: "VC Widgets Ltd" });
    const r = await credentialOf(rec.verification_id);
    expect(r.headers.get("content-type")).toBe("application/vc");
    expect(r.headers.get("access-control-allow-origin")).toBe("*");
    const vc = r.body;
    const did = didOfServer();
    expect(vc).toMatchObject({
      "@context": ["https://www.w3.org/ns/credentials/v2", `${baseUrl()}/ns/credentials/v1`],
      id: `${baseUrl()}/api/v1/records/${rec.verification_id}/vc`,
      type: ["VerifiableCredential", "ProofRecordCredential"],
      issuer: did,
      validFrom: rec.lifecycle.issued_at,
      validUntil: rec.lifecycle.expires_at,
      credentialSubject: {
        type: "ProofRecord", verification_id: rec.verification_id, environment: "live", subject: "VC Widgets Ltd",
        claim_type: "company_status", claim: rec.claim, evidence_level: rec.evidence_level, account_name: "Credential Holder Ltd",
        account_name_verified: false, checks: [{ fact: "statement", by: "account", at: rec.lifecycle.issued_at }],
        certificate_url: rec.certificate_url,
      },
      proof: { type: "DataIntegrityProof", cryptosuite: "eddsa-jcs-2022", proofPurpose: "assertionMethod" },
    });
    expect(vc.credentialStatus.map((s: any) => s.statusPurpose)).toEqual(["revocation", "suspension"]);
    for (const s of vc.credentialStatus) {
      expect(s).toMatchObject({ type: "BitstringStatusListEntry", statusListCredential: `${baseUrl()}/api/v1/status-lists/${s.statusPurpose}/0` });
    }
    // Signed with a published key, named as a verification method of the DID.
    const jwks = await call("GET", "/.well-known/jwks.json");
    const kid = vc.proof.verificationMethod.split("#")[1];
    expect(vc.proof.verificationMethod).toBe(`${did}#${kid}`);
    expect(jwks.body.keys.map((k: any) => k.kid)).toContain(kid);
    // Nothing private or internal.
    expect(r.text).not.toContain(rec.integrity.signature);
    expect(Object.keys(vc.credentialSubject).sort()).toEqual(
      ["account_name", "account_name_verified", "certificate_url", "checks", "claim", "claim_type", "environment", "evidence_level", "subject", "type", "verification_id"],
    );

    const docs = await documentsFor(vc);
    const result = await verifyWithLibraries(vc, docs);
    expect(result.verified, JSON.stringify(result.error ?? result, null, 1)).toBe(true);
    expect(await statusBits(vc, docs)).toEqual({ revocation: false, suspension: false });
    // Valid JSON-LD: every term is defined (safe mode refuses anything it would drop).
    const loader = staticLoader(docs);
    await expect(jsonld.expand(vc, { documentLoader: loader, safe: true })).resolves.toBeTruthy();
    for (const s of vc.credentialStatus) {
      await expect(jsonld.expand(docs[s.statusListCredential], { documentLoader: loader, safe: true })).resolves.toBeTruthy();
    }
    // The same index every time.
    const again = (await credentialOf(rec.verification_id)).body;
    expect(again.credentialStatus).toEqual(vc.credentialStatus);
  });

  it("concurrent first requests give a record one index", async () => {
    const a = await newAccount();
    const rec = await issue(a.sandboxKey);
    const all = await Promise.all(Array.from({ length: 6 }, () => credentialOf(rec.verification_id)));
    expect(new Set(all.map((r) => r.body.credentialStatus[0].id)).size).toBe(1);
  });

  it("the DID document lists every published key as a Multikey for assertions", async () => {
    const did = await call("GET", "/.well-known/did.json");
    expect(did.headers.get("content-type")).toBe("application/did+json");
    expect(did.headers.get("access-control-allow-origin")).toBe("*");
    const jwks = (await call("GET", "/.well-known/jwks.json")).body.keys as { kid: string; x: string }[];
    const id = didOfServer();
    expect(did.body).toMatchObject({ "@context": ["https://www.w3.org/ns/did/v1", "https://w3id.org/security/multikey/v1"], id });
    expect(did.body.verificationMethod).toEqual(jwks.map((k) => ({
      id: `${id}#${k.kid}`, type: "Multikey", controller: id,
      publicKeyMultibase: `z${bs58.encode(Buffer.concat([Buffer.from([0xed, 0x01]), Buffer.from(k.x, "base64url")]))}`,
    })));
    expect(did.body.assertionMethod).toEqual(jwks.map((k) => `${id}#${k.kid}`));
  });

  it("suspension sets the suspension bit and reinstating clears it; a revocation sets the revocation bit — for the credential fetched before", async () => {
    const a = await newLiveAccount();
    const rec = await issue(a.liveKey);
    const other = await issue(a.liveKey);
    const vc = (await credentialOf(rec.verification_id)).body;
    const otherVc = (await credentialOf(other.verification_id)).body;
    expect(otherVc.credentialStatus[0].statusListIndex).not.toBe(vc.credentialStatus[0].statusListIndex);

    const bitsNow = async (c: any) => statusBits(c, await documentsFor(c));
    expect(await bitsNow(vc)).toEqual({ revocation: false, suspension: false });

    await lifecycle(a.liveKey, rec.verification_id, "suspend");
    expect(await bitsNow(vc)).toEqual({ revocation: false, suspension: true });
    await lifecycle(a.liveKey, rec.verification_id, "reinstate");
    expect(await bitsNow(vc)).toEqual({ revocation: false, suspension: false });
    await lifecycle(a.liveKey, rec.verification_id, "revoke");
    const docs = await documentsFor(vc);
    expect(await statusBits(vc, docs)).toEqual({ revocation: true, suspension: false });
    // The library's whole check: the proof still verifies (it was issued), the status says revoked.
    const whole = await verifyWithLibraries(vc, docs);
    expect(whole.statusResult?.results?.find((x) => x.credentialStatus.statusPurpose === "revocation")?.status).toBe(true);
    // Another record in the same lists is untouched.
    expect(await bitsNow(otherVc)).toEqual({ revocation: false, suspension: false });
    // A revoked record's credential is still served (its status says it is revoked).
    const after = await credentialOf(rec.verification_id);
    expect(after.body.credentialStatus).toEqual(vc.credentialStatus);
  });

  it("an early expiry and a supersession set the revocation bit", async () => {
    const a = await newLiveAccount();
    const rec = await issue(a.liveKey);
    const vc = (await credentialOf(rec.verification_id)).body;
    await lifecycle(a.liveKey, rec.verification_id, "expire");
    expect(await statusBits(vc, await documentsFor(vc))).toEqual({ revocation: true, suspension: false });
    const old = await issue(a.liveKey);
    const successor = await issue(a.liveKey);
    const oldVc = (await credentialOf(old.verification_id)).body;
    const s = await call("POST", `/api/v1/records/${old.verification_id}/lifecycle`, {
      key: a.liveKey, body: { operation: "supersede", reason: "Replaced by a new record.", superseded_by: successor.verification_id },
    });
    expect(s.status, s.text).toBe(200);
    expect(await statusBits(oldVc, await documentsFor(oldVc))).toEqual({ revocation: true, suspension: false });
  });

  it("a tampered credential or status list fails", async () => {
    const a = await newLiveAccount();
    const rec = await issue(a.liveKey);
    const vc = (await credentialOf(rec.verification_id)).body;
    const docs = await documentsFor(vc);
    const forged = structuredClone(vc);
    forged.credentialSubject.evidence_level = "evidence_verified";
    expect((await verifyWithLibraries(forged, docs)).verified).toBe(false);
    const otherKey = structuredClone(vc);
    otherKey.proof.proofValue = `z${bs58.encode(Buffer.alloc(64, 7))}`;
    expect((await verifyWithLibraries(otherKey, docs)).verified).toBe(false);
    // A status list with the record's revocation bit set by someone else does not verify.
    const url = vc.credentialStatus[0].statusListCredential;
    const list = structuredClone(docs[url]) as any;
    const bits = gunzipSync(Buffer.from(list.credentialSubject.encodedList.slice(1), "base64url"));
    const i = Number(vc.credentialStatus[0].statusListIndex);
    bits[i >> 3]! |= 0x80 >> (i & 7);
    list.credentialSubject.encodedList = `u${gzipSync(bits).toString("base64url")}`;
    await expect(statusBits(vc, { ...docs, [url]: list })).rejects.toThrow(/not verified/);
  });

  it("serves sandbox records marked as test data, issued by the sandbox DID with a sandbox key, which a live verifier refuses", async () => {
    const a = await newAccount();
    const rec = await issue(a.sandboxKey, { subject: "Sandbox Claims Anything Ltd" });
    const vc = (await credentialOf(rec.verification_id)).body;
    expect(vc.name).toMatch(/^Sandbox record .*not verified/);
    expect(vc.credentialSubject.environment).toBe("sandbox");
    expect(vc.issuer).toBe(sandboxDid());
    const kid = vc.proof.verificationMethod.split("#")[1];
    expect(vc.proof.verificationMethod).toBe(`${sandboxDid()}#${kid}`);
    expect(kid).toMatch(/^sbx-/);
    for (const s of vc.credentialStatus) {
      expect(s.statusListCredential).toBe(`${baseUrl()}/sandbox/status-lists/${s.statusPurpose}/0`);
    }

    // Verifies against the sandbox DID document, with its own sandbox-signed status lists.
    const docs = await documentsFor(vc);
    const ok = await verifyWithLibraries(vc, docs);
    expect(ok.verified, JSON.stringify(ok.error ?? ok, null, 1)).toBe(true);
    expect(await statusBits(vc, docs)).toEqual({ revocation: false, suspension: false });
    for (const s of vc.credentialStatus) {
      const list = docs[s.statusListCredential] as any;
      expect(list.issuer).toBe(sandboxDid());
      expect(list.proof.verificationMethod).toMatch(new RegExp(`^${sandboxDid()}#sbx-`));
    }
    const sandboxDoc = docs[sandboxDid()] as any;
    expect(sandboxDoc.verificationMethod.map((m: any) => m.id)).toContain(vc.proof.verificationMethod);

    // A verifier that trusts only the live issuer refuses it: it does not resolve the sandbox DID …
    const liveOnly = await documentsFor(vc, didOfServer());
    expect(liveOnly[sandboxDid()]).toBeUndefined();
    expect((await verifyWithLibraries(vc, liveOnly)).verified).toBe(false);
    // … and the credential passed off as the live issuer's fails: no live key made its signature.
    const asLive = structuredClone(vc);
    asLive.issuer = didOfServer();
    asLive.proof.verificationMethod = `${didOfServer()}#${kid}`;
    expect((await verifyWithLibraries(asLive, liveOnly)).verified).toBe(false);
    const liveDoc = liveOnly[didOfServer()] as any;
    for (const m of liveDoc.verificationMethod) {
      const withLiveKid = structuredClone(asLive);
      withLiveKid.proof.verificationMethod = m.id;
      expect((await verifyWithLibraries(withLiveKid, liveOnly)).verified).toBe(false);
    }

    // A live credential does not verify against the sandbox DID either.
    const live = await newLiveAccount();
    const liveVc = (await credentialOf((await issue(live.liveKey)).verification_id)).body;
    expect((await verifyWithLibraries(liveVc, await documentsFor(liveVc, sandboxDid()))).verified).toBe(false);
  });

  it("a sandbox record's status is in the sandbox lists; the live lists mark it revoked and never carry its other statuses", async () => {
    const a = await newAccount();
    const rec = await issue(a.sandboxKey);
    const vc = (await credentialOf(rec.verification_id)).body;
    const bitsNow = async (c: any) => statusBits(c, await documentsFor(c));
    await lifecycle(a.sandboxKey, rec.verification_id, "suspend");
    expect(await bitsNow(vc)).toEqual({ revocation: false, suspension: true });
    await lifecycle(a.sandboxKey, rec.verification_id, "reinstate");
    expect(await bitsNow(vc)).toEqual({ revocation: false, suspension: false });
    // The live lists at the same index: revoked (a sandbox credential signed by the live issuer
    // before sandbox credentials had their own is revoked), never suspended.
    const i = Number(vc.credentialStatus[0].statusListIndex);
    const bitOf = async (path: string) => {
      const list = await call("GET", path);
      expect(list.status).toBe(200);
      expect(list.body.issuer).toBe(didOfServer());
      const bits = gunzipSync(Buffer.from(list.body.credentialSubject.encodedList.slice(1), "base64url"));
      return (bits[i >> 3]! & (0x80 >> (i & 7))) !== 0;
    };
    expect(await bitOf("/api/v1/status-lists/revocation/0")).toBe(true);
    await lifecycle(a.sandboxKey, rec.verification_id, "suspend");
    expect(await bitOf("/api/v1/status-lists/suspension/0")).toBe(false);
    await lifecycle(a.sandboxKey, rec.verification_id, "revoke");
    expect(await bitsNow(vc)).toEqual({ revocation: true, suspension: false });

    // A live record's status is never in the sandbox lists.
    const live = await newLiveAccount();
    const liveRec = await issue(live.liveKey);
    const liveVc = (await credentialOf(liveRec.verification_id)).body;
    await lifecycle(live.liveKey, liveRec.verification_id, "revoke");
    expect(await bitsNow(liveVc)).toEqual({ revocation: true, suspension: false });
    const j = Number(liveVc.credentialStatus[0].statusListIndex);
    const sandboxList = await call("GET", "/sandbox/status-lists/revocation/0");
    const bits = gunzipSync(Buffer.from(sandboxList.body.credentialSubject.encodedList.slice(1), "base64url"));
    expect(bits[j >> 3]! & (0x80 >> (j & 7))).toBe(0);
  });

  it("the sandbox DID document holds only sandbox keys; the live JWKS and DID document hold none", async () => {
    const sandbox = await call("GET", "/sandbox/did.json");
    expect(sandbox.status).toBe(200);
    expect(sandbox.headers.get("content-type")).toBe("application/did+json");
    expect(sandbox.headers.get("access-control-allow-origin")).toBe("*");
    const id = sandboxDid();
    expect(sandbox.body).toMatchObject({ "@context": ["https://www.w3.org/ns/did/v1", "https://w3id.org/security/multikey/v1"], id });
    expect(sandbox.body.verificationMethod.length).toBeGreaterThan(0);
    for (const m of sandbox.body.verificationMethod) {
      expect(m).toMatchObject({ type: "Multikey", controller: id });
      expect(m.id).toMatch(new RegExp(`^${id}#sbx-`));
    }
    expect(sandbox.body.assertionMethod).toEqual(sandbox.body.verificationMethod.map((m: any) => m.id));

    const jwks = (await call("GET", "/.well-known/jwks.json")).body.keys as { kid: string; x: string }[];
    const live = (await call("GET", "/.well-known/did.json")).body;
    const sandboxKeys = new Set(sandbox.body.verificationMethod.map((m: any) => m.publicKeyMultibase));
    const multikey = (x: string) => `z${bs58.encode(Buffer.concat([Buffer.from([0xed, 0x01]), Buffer.from(x, "base64url")]))}`;
    expect(jwks.length).toBeGreaterThan(0);
    for (const k of jwks) {
      expect(k.kid).not.toMatch(/^sbx-/);
      expect(sandboxKeys.has(multikey(k.x))).toBe(false);
    }
    for (const m of live.verificationMethod) {
      expect(m.id.split("#")[1]).not.toMatch(/^sbx-/);
      expect(sandboxKeys.has(m.publicKeyMultibase)).toBe(false);
    }
    const webhookKeys = (await call("GET", "/api/v1/webhooks/public-keys")).body;
    expect(webhookKeys.keys.length).toBeGreaterThan(0);
    for (const k of webhookKeys.keys) expect(k.kid).not.toMatch(/^sbx-/);
  });

  it("answers bad input with a stable 4xx", async () => {
    for (const id of ["PRS-0000000000000000000Z", "not-an-id", "PRS-%20", "x".repeat(300)]) {
      const r = await call("GET", `/api/v1/records/${id}/vc`);
      expect(r.status, id).toBe(404);
      expect(r.body.error.code).toBe("record_not_found");
    }
    for (const p of ["/api/v1/records/%ff/vc", "/api/v1/status-lists/%ff/0", "/api/v1/status-lists/revocation/%ff", "/sandbox/status-lists/%ff/0"]) {
      const r = await call("GET", p);
      expect([r.status, r.body?.error?.code], p).toEqual([400, "invalid_path"]);
    }
    // A record still waiting for review has no credential.
    const pending = await call("POST", "/api/v1/records", {
      key: (await newAccount()).sandboxKey,
      body: { subject: "Pending Ltd", claim_type: "trade_licence", claim: "Holds a trade licence.",
        source_name: "Registry", source_url: "https://registry.example/1", checked_at: new Date().toISOString() },
    });
    expect(pending.status, pending.text).toBe(202);
    expect((await call("GET", `/api/v1/records/${pending.body.verification_id}/vc`)).status).toBe(404);
    for (const p of ["freeze/0", "revocation/abc", "revocation/-1", "revocation/99999", "revocation/01", "suspension/1.5", "REVOCATION/0"]) {
      for (const prefix of ["/api/v1/status-lists", "/sandbox/status-lists"]) {
        const r = await call("GET", `${prefix}/${p}`);
        expect(r.status, `${prefix}/${p}`).toBe(404);
        expect(r.body.error).toMatchObject({ type: "not_found", code: "not_found" });
      }
    }
    expect((await call("POST", "/sandbox/status-lists/revocation/0", { body: {} })).status).toBe(405);
    const post = await call("POST", "/api/v1/status-lists/revocation/0", { body: {} });
    expect(post.status).toBe(405);
    expect((await call("DELETE", "/api/v1/records/PRS-0000000000000000000Z/vc")).status).toBe(405);
    const list = await call("GET", "/api/v1/status-lists/suspension/0");
    expect(list.status).toBe(200);
    expect(list.headers.get("cache-control")).toMatch(/^public, max-age=\d+, s-maxage=\d+$/);
    expect(gunzipSync(Buffer.from(list.body.credentialSubject.encodedList.slice(1), "base64url")).length).toBe(16_384);
  });
});
