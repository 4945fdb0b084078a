import { afterAll, describe, expect, it } from "vitest";
import { until } from "../helpers";
import { verifyWithKeySet } from "../signatures";
import { holdKeys as holdDataDirKeys, newKey, signingGlobals } from "./keyring";
import { dataLayerTest } from "./setup";

// In-process: several "instances" are played by swapping the keys file and the process's keyring
// over one database (a private PGlite folder, or DATABASE_URL's PostgreSQL).
const { dir, db } = await dataLayerTest({ prefix: "prs-keys-" });
const { signingKeys } = await import("@/drizzle/schema");
const keys = await import("@/lib/signing/keys");
const { publishLocalKeys, loadPublishedKeys, publishedJwks, publishedKeySet, KeyConflict } = await import("@/lib/signing/published-keys");
const { didDocument } = await import("@/lib/public/vc/did");
const { signJson } = await import("@/lib/signing/canonical");
const { inArray } = await import("drizzle-orm");

const g = signingGlobals;
const suffix = Date.now().toString(36);
const kids = { a: `a-${suffix}`, b: `b-${suffix}`, c: `c-${suffix}`, d: `d-${suffix}`, e: `e-${suffix}` };

/** This process becomes an instance holding `held` (the last one newest). */
const holdKeys = (held: { kid: string }[]) => holdDataDirKeys(dir, held);

async function verifiesWithPublished(value: unknown) {
  const s = signJson(value);
  return { kid: s.kid, ok: await verifyWithKeySet(await publishedJwks(db), value, s.signature, s.kid) };
}

afterAll(async () => {
  g.__prsKeyring = undefined;
  g.__prsPublished = undefined;
  const all = Object.values(kids);
  await db.delete(signingKeys).where(inArray(signingKeys.kid, [...all, ...all.map((k) => `sbx-${k}`)]));
});

describe("one published key set for every instance", () => {
  it("publishes what each instance holds, signs only with published keys, and serves every instance's keys", async () => {
    const [a, b, c] = await Promise.all([newKey(kids.a), newKey(kids.b), newKey(kids.c)]);

    // Instance 1 holds a; it publishes a, signs with a.
    holdKeys([a]);
    await publishLocalKeys(db);
    expect(await verifiesWithPublished({ n: 1 })).toEqual({ kid: kids.a, ok: true });

    // Instance 2 starts with a new key b appended (a rolling rotation) and publishes both.
    holdKeys([a, b]);
    await publishLocalKeys(db);
    expect(await verifiesWithPublished({ n: 2 })).toEqual({ kid: kids.b, ok: true });

    // Instance 1 again, its view reloaded: it still signs with a, and publishes b too.
    holdKeys([a]);
    await loadPublishedKeys(db);
    expect(keys.keyring().active.kid).toBe(kids.a);
    const published = keys.publicJwks().keys.map((k) => k.kid);
    expect(published).toEqual(expect.arrayContaining([kids.a, kids.b]));
    expect((await publishedJwks(db)).keys.map((k) => k.kid)).toEqual(expect.arrayContaining([kids.a, kids.b]));

    // An instance whose newest key c is not published yet keeps signing with b …
    holdKeys([a, b, c]);
    await loadPublishedKeys(db);
    expect(keys.keyring().active.kid).toBe(kids.b);
    // … and asked for c's publication while doing so; once published, c signs.
    await until("c to be published and signing", () => keys.keyring().active.kid === kids.c, 10_000, 20);
    expect((await publishedJwks(db)).keys.map((k) => k.kid)).toContain(kids.c);
    expect(await verifiesWithPublished({ n: 3 })).toEqual({ kid: kids.c, ok: true });
  });

  it("publishes each key's sandbox twin (HKDF of the live key) as a sandbox key, never in the JWKS or the live DID document", async () => {
    const [d, e] = await Promise.all([newKey(kids.d), newKey(kids.e)]);
    holdKeys([d, e]);
    await publishLocalKeys(db);
    const rows = await db.select().from(signingKeys).where(inArray(signingKeys.kid, [kids.d, kids.e, `sbx-${kids.d}`, `sbx-${kids.e}`]));
    const env = Object.fromEntries(rows.map((r) => [r.kid, r.environment]));
    expect(env).toEqual({ [kids.d]: "live", [kids.e]: "live", [`sbx-${kids.d}`]: "sandbox", [`sbx-${kids.e}`]: "sandbox" });

    // The twin: deterministic (every instance holding the key derives the same one), distinct from the live key.
    const live = keys.localKeys().find((k) => k.kid === kids.e)!;
    const twin = keys.sandboxTwin(live);
    expect(keys.sandboxTwin(live).x).toBe(twin.x);
    expect(twin).toMatchObject({ kid: `sbx-${kids.e}`, environment: "sandbox" });
    expect(twin.x).not.toBe(live.x);
    const { hkdf } = await import("@noble/hashes/hkdf.js");
    const { sha256 } = await import("@noble/hashes/sha2.js");
    expect(Buffer.from(twin.secret)).toEqual(Buffer.from(hkdf(sha256, live.secret, undefined, new TextEncoder().encode("prs sandbox credential key v1"), 32)));
    expect(rows.find((r) => r.kid === twin.kid)!.x).toBe(twin.x);

    // The live set (JWKS, in-process JWKS, DID document) has no sandbox key; the sandbox set has only sandbox keys.
    await loadPublishedKeys(db);
    expect(keys.sandboxSigningKey().kid).toBe(`sbx-${kids.e}`);
    expect(keys.keyring().active.kid).toBe(kids.e);
    const liveKids = (await publishedJwks(db)).keys.map((k) => k.kid);
    expect(liveKids).toEqual(expect.arrayContaining([kids.d, kids.e]));
    expect(liveKids.filter((k) => k.startsWith("sbx-"))).toEqual([]);
    expect(keys.publicJwks().keys.filter((k) => k.kid.startsWith("sbx-"))).toEqual([]);
    expect((await didDocument(db)).verificationMethod.filter((m) => m.id.includes("#sbx-"))).toEqual([]);
    const sandboxKids = (await publishedKeySet(db, "sandbox")).keys.map((k) => k.kid);
    expect(sandboxKids).toEqual(expect.arrayContaining([`sbx-${kids.d}`, `sbx-${kids.e}`]));
    expect(sandboxKids.every((k) => k.startsWith("sbx-"))).toBe(true);
    const sandboxDoc = await didDocument(db, "sandbox");
    expect(sandboxDoc.id).toMatch(/^did:web:.+:sandbox$/);
    expect(sandboxDoc.verificationMethod.every((m) => m.id.startsWith(`${sandboxDoc.id}#sbx-`))).toBe(true);
    // A sandbox key does not verify a live signature.
    expect(keys.verifyBytes(twin.kid, new Uint8Array([1]), keys.signBytes(new Uint8Array([1]), twin).signature)).toBe(false);
  });

  it("refuses a kid that is already published with another key", async () => {
    const impostor = await newKey(kids.a); // same kid, different key pair
    holdKeys([impostor]);
    await expect(publishLocalKeys(db)).rejects.toBeInstanceOf(KeyConflict);
    const [row] = await db.select().from(signingKeys).where(inArray(signingKeys.kid, [kids.a]));
    expect(row!.x).not.toBe(impostor.x);
  });
});
