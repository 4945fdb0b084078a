import canonicalize from "canonicalize";
import { createLocalJWKSet } from "jose";
import { describe, expect, it } from "vitest";
import { baseUrl, call, companyStatus, newAccount, newLiveAccount, until } from "../helpers";
import { withServerDb } from "../server-db";
import { leafHashOf, parseBundle, rootOf, tileIndexPath, tilesOf, TILE_WIDTH, verifyCheckpoint, verifyInclusion, type Checkpoint } from "../tlog-check";

/**
 * The transparency log over HTTP (issue 19, CONTRACT "Transparency log"), checked with
 * tests/tlog-check.ts (node:crypto, written from RFC 9162 and C2SP) and jose + canonicalize.
 */
const text = async (p: string) => {
  const r = await fetch(baseUrl() + p);
  return { status: r.status, body: await r.text(), type: r.headers.get("content-type") };
};
const bytes = async (p: string) => {
  const r = await fetch(baseUrl() + p);
  return { status: r.status, body: Buffer.from(await r.arrayBuffer()) };
};
const vkey = async () => (await text("/log/key")).body.trim();

async function issueLive(key: string, subject: string) {
  const r = await call("POST", "/api/v1/records", { key, body: companyStatus({ subject, claim: `${subject} is active.`, visibility: "public" }) });
  expect(r.status, r.text).toBe(201);
  return r.body.verification_id as string;
}

/** The signed status once its latest change is in a checkpoint; its signature checked with jose. */
async function provenStatus(id: string, wantStatus: string) {
  const status = await until(`${id} proven as ${wantStatus}`, async () => {
    const s = (await call("GET", `/api/v1/records/${id}/status`)).body;
    return s.transparency_log && JSON.parse(s.transparency_log.leaf).status === wantStatus ? s : undefined;
  }, 15_000, 150);
  const { status_signature, ...signed } = status;
  const jwks = createLocalJWKSet((await call("GET", "/.well-known/jwks.json")).body);
  const key = (await jwks({ alg: "EdDSA", kid: status.signing_key_id })) as CryptoKey;
  expect(await crypto.subtle.verify("Ed25519", key, Buffer.from(status_signature, "base64url"), new TextEncoder().encode(canonicalize(signed)!))).toBe(true);
  return status;
}

/** A record's signed status, its signature checked with jose against the published JWKS. */
async function signedStatus(id: string) {
  const status = (await call("GET", `/api/v1/records/${id}/status`)).body;
  const { status_signature, ...signed } = status;
  const jwks = createLocalJWKSet((await call("GET", "/.well-known/jwks.json")).body);
  const key = (await jwks({ alg: "EdDSA", kid: status.signing_key_id })) as CryptoKey;
  expect(await crypto.subtle.verify("Ed25519", key, Buffer.from(status_signature, "base64url"), new TextEncoder().encode(canonicalize(signed)!))).toBe(true);
  return status;
}

type Entry = { verification_id: string | null; event: string; status: string; at: string };

/**
 * The whole log as a monitor sees it, checked with this file's own code: the checkpoint's
 * signature against the pinned key, every entry from the entry bundles (paths from the
 * C2SP spec, tests/tlog-check.ts), and the Merkle root of those entries equal to the
 * checkpoint's — so these are the entries the signed checkpoint commits to.
 */
async function independentLog(key: string): Promise<{ cp: Checkpoint; entries: Entry[] }> {
  const cp = verifyCheckpoint((await text("/log/checkpoint")).body, key);
  const leaves: string[] = [];
  for (const t of tilesOf(cp.size, "entries")) {
    const bundle = await bytes(`/log/${t.path}`);
    expect(bundle.status, t.path).toBe(200);
    leaves.push(...parseBundle(bundle.body));
  }
  expect(leaves).toHaveLength(cp.size);
  expect(rootOf(leaves.map((l) => leafHashOf(l))).equals(cp.root), "the entries rebuild the checkpoint's root").toBe(true);
  return { cp, entries: leaves.map((l) => JSON.parse(l) as Entry) };
}

const FINAL = new Set(["revoked", "expired", "superseded"]);

/**
 * Does a signed status contradict the record's logged history (docs/verify.md, "Running a
 * monitor")? A final logged status can never be followed by another; an answer whose change
 * is no newer than the latest logged entry must say what that entry says. Null when it agrees
 * (or shows a newer change the log has not caught up with yet).
 */
function contradiction(entries: readonly Entry[], status: { verification_id: string; status: string; status_changed_at: string }): string | null {
  const mine = entries.filter((e) => e.verification_id === status.verification_id);
  const last = mine.at(-1);
  if (!last) return `${status.verification_id} is not in the log`;
  if (last.status === status.status) return null;
  if (FINAL.has(last.status)) return `${status.verification_id} is logged as ${last.status} (a final status) but answered ${status.status}`;
  if (Date.parse(status.status_changed_at) <= Date.parse(last.at)) {
    return `${status.verification_id} is logged as ${last.status} at ${last.at} but answered ${status.status} since ${status.status_changed_at}`;
  }
  return null;
}

describe("transparency log", () => {
  it("logs a live record's issuance and revocation, with proofs a third party can check against the signed checkpoint", async () => {
    const { liveKey } = await newLiveAccount();
    const id = await issueLive(liveKey, "Logged Ltd");
    const key = await vkey();
    expect(key).toMatch(new RegExp(`^${new URL(baseUrl()).host.replace(/\./g, "\\.")}/log\\+[0-9a-f]{8}\\+`));

    const issued = await provenStatus(id, "active");
    const t = issued.transparency_log;
    const cp = verifyCheckpoint(t.checkpoint, key);
    expect(cp.origin).toBe(`${new URL(baseUrl()).host}/log`);
    expect(cp.size).toBe(t.tree_size);
    expect(cp.root.toString("base64")).toBe(t.root_hash);
    const leaf = JSON.parse(t.leaf);
    expect(leaf).toEqual({ verification_id: id, event: "issued", status: "active", at: issued.issued_at, payload_sha256: expect.stringMatching(/^[0-9a-f]{64}$/), environment: "live" });
    expect(t.leaf).toBe(canonicalize(leaf));
    expect(leafHashOf(t.leaf).toString("hex")).toBe(t.leaf_hash);
    const record = (await call("GET", `/api/v1/records/${id}`, { key: liveKey })).body;
    expect(leaf.payload_sha256).toBe(record.integrity.payload_sha256);
    expect(verifyInclusion(t.index, t.tree_size, leafHashOf(t.leaf), t.inclusion_proof.map((x: string) => Buffer.from(x, "hex")), cp.root)).toBe(true);
    // The same proof does not prove another entry.
    expect(verifyInclusion(t.index, t.tree_size, leafHashOf(t.leaf.replace("active", "revoked")), t.inclusion_proof.map((x: string) => Buffer.from(x, "hex")), cp.root)).toBe(false);

    const rev = await call("POST", `/api/v1/records/${id}/lifecycle`, { key: liveKey, body: { operation: "revoke", reason: "test revoke" } });
    expect(rev.status, rev.text).toBe(200);
    const revoked = await provenStatus(id, "revoked");
    expect(revoked.status).toBe("revoked");
    expect(JSON.parse(revoked.transparency_log.leaf)).toMatchObject({ verification_id: id, event: "status_changed", status: "revoked" });
    expect(revoked.transparency_log.index).toBeGreaterThan(t.index);

    // Every entry of the record, each proven against the checkpoint beside them.
    const log = (await call("GET", `/api/v1/records/${id}/log`)).body;
    expect(log).toMatchObject({ verification_id: id, environment: "live", logged: true, pending_entries: 0 });
    const cp2 = verifyCheckpoint(log.checkpoint, key);
    expect(log.entries.map((e: any) => JSON.parse(e.leaf).status)).toEqual(["active", "revoked"]);
    for (const e of log.entries) {
      expect(e.tree_size).toBe(cp2.size);
      expect(verifyInclusion(e.index, e.tree_size, leafHashOf(e.leaf), e.inclusion_proof.map((x: string) => Buffer.from(x, "hex")), cp2.root)).toBe(true);
    }

    // The certificate shows the proof.
    const page = await text(`/r/${id}`);
    expect(page.body).toContain(`data-testid="log-index">#${revoked.transparency_log.index}<`);
    expect(page.body).toContain("Public log");
  });

  it("serves C2SP tiles and entry bundles that rebuild the checkpoint's root, and an older checkpoint stays consistent", async () => {
    const { liveKey } = await newLiveAccount();
    await issueLive(liveKey, "Tile One Ltd");
    const key = await vkey();
    const first = verifyCheckpoint((await text("/log/checkpoint")).body, key);
    for (let i = 0; i < 3; i++) await issueLive(liveKey, `Tile More ${i} Ltd`);
    const later = await until("a newer checkpoint", async () => {
      const c = verifyCheckpoint((await text("/log/checkpoint")).body, key);
      return c.size >= first.size + 3 ? c : undefined;
    }, 15_000, 150);
    const cpText = await text("/log/checkpoint");
    expect(cpText.type).toMatch(/^text\/plain/);

    // The spec's own example of an index, and the edges of its three-digit groups.
    expect([0, 7, 999, 1000, 1234067].map(tileIndexPath)).toEqual(["000", "007", "999", "x001/000", "x001/x234/067"]);

    // All entries, from full and partial entry bundles; their hashes must equal the level-0 tiles.
    const leaves: string[] = [];
    const hashes: Buffer[] = [];
    const bundles = tilesOf(later.size, "entries");
    const level0 = tilesOf(later.size, 0);
    expect(bundles.map((t) => t.width)).toEqual(level0.map((t) => t.width));
    for (const [i, t] of bundles.entries()) {
      const bundle = await bytes(`/log/${t.path}`);
      expect(bundle.status, t.path).toBe(200);
      leaves.push(...parseBundle(bundle.body));
      const tile = await bytes(`/log/${level0[i]!.path}`);
      expect(tile.status, level0[i]!.path).toBe(200);
      expect(tile.body.length).toBe(32 * t.width);
      for (let j = 0; j < t.width; j++) hashes.push(tile.body.subarray(32 * j, 32 * j + 32));
    }
    expect(leaves).toHaveLength(later.size);
    expect(leaves.map((l) => leafHashOf(l).toString("hex"))).toEqual(hashes.map((x) => x.toString("hex")));
    expect(rootOf(hashes.slice(0, later.size)).equals(later.root)).toBe(true);
    // Consistency: the first checkpoint's tree is a prefix of the later one.
    expect(rootOf(hashes.slice(0, first.size)).equals(first.root)).toBe(true);
    for (const l of leaves) expect(() => JSON.parse(l)).not.toThrow();
    // Level 1 holds the roots of each 256 leaves: each hash its subtree's root, as the spec places it.
    const level1 = tilesOf(later.size, 1);
    for (const t of level1) {
      const tile = await bytes(`/log/${t.path}`);
      expect(tile.status, t.path).toBe(200);
      for (let j = 0; j < t.width; j++) {
        const first256 = (t.n * TILE_WIDTH + j) * TILE_WIDTH;
        expect(tile.body.subarray(32 * j, 32 * j + 32).equals(rootOf(hashes.slice(first256, first256 + TILE_WIDTH))), `${t.path} hash ${j}`).toBe(true);
      }
    }
    // A tree of fewer than 256 leaves has no level-1 hash yet: not even a partial tile of one.
    if (level1.length === 0) expect((await bytes("/log/tile/1/000.p/1")).status).toBe(404);

    // Beyond the checkpoint, and malformed paths: 404, never 500.
    // Against the newest checkpoint: the shared server's log grows while the suite runs (a tile that
    // was beyond `later` is served once the log has grown over it).
    const now = verifyCheckpoint((await text("/log/checkpoint")).body, key);
    const beyond = Math.floor(now.size / TILE_WIDTH) + 1;
    const wider = `/log/tile/0/${tileIndexPath(Math.floor(now.size / TILE_WIDTH))}.p/${(now.size % TILE_WIDTH) + 1}`; // one hash wider than the tree
    for (const p of [`/log/tile/entries/${tileIndexPath(beyond)}`, wider, "/log/tile/0/abc",
      "/log/tile/0/x001", "/log/tile/9/000", "/log/tile/entries/000.p/0", "/log/tile/entries/000.p/256", "/log/tile/0", "/log/tile/-1/000", "/log/tile/0/1/000"]) {
      const r = await text(p);
      expect(r.status, p).toBe(404);
    }
  });

  it("a status edited behind the service's back no longer matches its logged history", async () => {
    const { liveKey } = await newLiveAccount();
    const key = await vkey();
    // Two records, both revoked; one is then edited back to active in the database, the other left alone.
    const tampered = await issueLive(liveKey, "Tampered Ltd");
    const honest = await issueLive(liveKey, "Untouched Ltd");
    for (const id of [tampered, honest]) {
      const r = await call("POST", `/api/v1/records/${id}/lifecycle`, { key: liveKey, body: { operation: "revoke", reason: "revoked, then edited back" } });
      expect(r.status, r.text).toBe(200);
    }
    // The log, read as a monitor reads it: the checkpoint and the entry bundles, nothing else of the service.
    const logged = await until("both revocations under a checkpoint", async () => {
      const view = await independentLog(key);
      const revoked = (id: string) => view.entries.some((e) => e.verification_id === id && e.status === "revoked");
      return revoked(tampered) && revoked(honest) ? view : undefined;
    }, 15_000, 150);
    const historyOf = (id: string) => logged.entries.filter((e) => e.verification_id === id).map((e) => `${e.event}:${e.status}`);
    expect(historyOf(tampered)).toEqual(["issued:active", "status_changed:revoked"]);
    expect(historyOf(honest)).toEqual(["issued:active", "status_changed:revoked"]);

    // The edit a database operator could make: the status back to active, its date back to the issue — no API, no history.
    const edited = await withServerDb((sql) =>
      sql`update records set status = 'active', status_changed_at = issued_at where id = ${tampered} returning status, status_changed_at = issued_at as undated`);
    expect(edited).toEqual([{ status: "active", undated: true }]);

    // What the service now signs: the edited status, with a signature that verifies (the edit is invisible in the answer itself) …
    const now = await signedStatus(tampered);
    expect(now.status).toBe("active");
    expect(now.status_changed_at).toBe(now.issued_at);
    // … and its own log proof still shows the revocation, proven against the signed checkpoint.
    const t = now.transparency_log;
    const cp = verifyCheckpoint(t.checkpoint, key);
    expect(verifyInclusion(t.index, t.tree_size, leafHashOf(t.leaf), t.inclusion_proof.map((x: string) => Buffer.from(x, "hex")), cp.root)).toBe(true);
    expect(JSON.parse(t.leaf)).toMatchObject({ verification_id: tampered, event: "status_changed", status: "revoked" });

    // The comparison a monitor makes, done here: the log holds a final revocation the signed status contradicts.
    const latest = await independentLog(key);
    expect(contradiction(latest.entries, now)).toBe(`${tampered} is logged as revoked (a final status) but answered active`);
    // The record left alone agrees with its log: the comparison does not call everything a contradiction.
    expect(contradiction(latest.entries, await signedStatus(honest))).toBeNull();
  });

  it("pages a record's entries: the latest page with a cursor, every page proven, none overlapping or skipped", async () => {
    const { liveKey } = await newLiveAccount();
    const id = await issueLive(liveKey, "Paged Log Ltd");
    for (const operation of ["suspend", "reinstate", "suspend", "reinstate", "revoke"]) {
      const r = await call("POST", `/api/v1/records/${id}/lifecycle`, { key: liveKey, body: { operation, reason: `paging ${operation}` } });
      expect(r.status, r.text).toBe(200);
    }
    const all = await until("six entries in a checkpoint", async () => {
      const log = (await call("GET", `/api/v1/records/${id}/log?limit=200`)).body;
      return log.entries.length === 6 && log.pending_entries === 0 ? log : undefined;
    }, 15_000, 150);
    expect(all.entries_before).toBeNull();
    expect(all.entries.map((e: any) => JSON.parse(e.leaf).status)).toEqual(["active", "suspended", "active", "suspended", "active", "revoked"]);

    // Pages of two, newest first, read back to the start by the cursor each answer gives.
    const key = await vkey();
    const seen: any[] = [];
    let before: number | null | undefined;
    let pages = 0;
    do {
      const r = await call("GET", `/api/v1/records/${id}/log?limit=2${before ? `&before=${before}` : ""}`);
      expect(r.status, r.text).toBe(200);
      const cp = verifyCheckpoint(r.body.checkpoint, key);
      expect(r.body.entries.length).toBeLessThanOrEqual(2);
      for (const e of r.body.entries) {
        expect(verifyInclusion(e.index, e.tree_size, leafHashOf(e.leaf), e.inclusion_proof.map((x: string) => Buffer.from(x, "hex")), cp.root)).toBe(true);
      }
      seen.unshift(...r.body.entries);
      before = r.body.entries_before;
      if (before !== null) expect(before).toBe(r.body.entries[0].index);
      pages++;
    } while (before !== null && pages < 10);
    expect(pages).toBe(3);
    expect(seen.map((e) => e.index)).toEqual(all.entries.map((e: any) => e.index));
    // The default page is the latest (here: all six).
    expect((await call("GET", `/api/v1/records/${id}/log`)).body.entries.map((e: any) => e.index)).toEqual(all.entries.map((e: any) => e.index));

    // Bad cursors and sizes: 422 with a stable code, never 500.
    for (const [q, code] of [["limit=0", "invalid_value"], ["limit=201", "invalid_value"], ["limit=abc", "invalid_format"], ["before=-1", "invalid_format"],
      ["before=0", "invalid_value"], ["before=1&before=2", "invalid_format"], ["limit=1e3", "invalid_format"]] as const) {
      const r = await call("GET", `/api/v1/records/${id}/log?${q}`);
      expect(r.status, q).toBe(422);
      expect(r.body.error.code, q).toBe(code);
    }
    const nul = await call("GET", `/api/v1/records/${id}/log?before=%00`);
    expect([nul.status, nul.body.error.code]).toEqual([400, "invalid_query"]); // the service-wide refusal of a NUL
  });

  it("keeps sandbox records out of the log and says so", async () => {
    const { sandboxKey } = await newAccount("sandbox-log");
    const r = await call("POST", "/api/v1/records", { key: sandboxKey, body: companyStatus({ subject: "Sandbox Log Ltd" }) });
    const id = r.body.verification_id;
    expect((await call("GET", `/api/v1/records/${id}/status`)).body.transparency_log).toBeNull();
    const log = await call("GET", `/api/v1/records/${id}/log`);
    expect(log.status).toBe(200);
    expect(log.body).toMatchObject({ environment: "sandbox", logged: false, entries: [], pending_entries: 0 });
    expect((await text(`/r/${id}`)).body).toContain("Sandbox records are not entered in the public transparency log");
    expect((await call("GET", "/api/v1/records/PRS-00000000000000000000/log")).status).toBe(404);
  });
});
