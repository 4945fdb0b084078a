import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, inject, it } from "vitest";
import { adminViaServer } from "../admin-client";
import { admin, baseUrl, newAccount } from "../helpers";
import { freePort, startServer, type StartedServer } from "../server";

type Outcome = { startedAt: number; status: number; code?: string };

/**
 * One round: a key nobody has used yet (its first uses write `last_used_at`, the widest
 * window between reading the key and caching it), `workers` clients calling a keyed route
 * back to back against `requestBase`, and a revoke through `revoke` sent at the same
 * moment. The clients go on until each has made `after` requests that started once the
 * revoke had answered. Returns when the revoke answered and every request's outcome.
 */
async function round(requestBase: string, revoke: (keyId: string) => Promise<unknown>, accountId: string, workers = 8, after = 4) {
  const k = await admin("key", "create", "--account", accountId, "--env", "sandbox");
  const outcomes: Outcome[] = [];
  let revokedAt = Infinity;
  const client = async () => {
    let late = 0;
    while (late < after) {
      const startedAt = performance.now();
      if (startedAt > revokedAt) late++;
      const res = await fetch(`${requestBase}/api/v1/usage`, { headers: { Authorization: `Bearer ${k.key}` } });
      const body = (await res.json()) as { error?: { code: string } };
      outcomes.push({ startedAt, status: res.status, code: body.error?.code });
    }
  };
  const revoking = revoke(k.key_id).then(() => {
    revokedAt = performance.now();
  });
  await Promise.all([revoking, ...Array.from({ length: workers }, client)]);
  return { revokedAt, outcomes };
}

/** Every request that started after the revoke answered was refused as revoked. */
function expectRefusedAfter({ revokedAt, outcomes }: Awaited<ReturnType<typeof round>>, label: string) {
  const late = outcomes.filter((o) => o.startedAt > revokedAt);
  expect(late.length).toBeGreaterThan(0);
  const served = late.filter((o) => !(o.status === 401 && o.code === "api_key_revoked"));
  expect(served, `${label}: ${served.length} of ${late.length} requests started after the revoke answered were not refused`).toEqual([]);
}

/**
 * Rounds until `rounds` are done or `budgetMs` has passed (the machine is slow and shared):
 * enough to catch the race the cache had (a stale entry in about 6 of 15 tries).
 */
async function raceRepeatedly(requestBase: string, revoke: (keyId: string) => Promise<unknown>, rounds: number, budgetMs: number) {
  const a = await newAccount("race");
  const deadline = Date.now() + budgetMs;
  let done = 0;
  while (done < rounds && Date.now() < deadline) {
    expectRefusedAfter(await round(requestBase, revoke, a.accountId), `round ${done + 1}`);
    done++;
  }
  expect(done).toBeGreaterThanOrEqual(Math.min(rounds, 5));
}

describe("a revoked key is refused on the very next request, under concurrency", () => {
  it("in the process that revoked it", async () => {
    await raceRepeatedly(baseUrl(), (keyId) => admin("key", "revoke", "--key", keyId), 30, 60_000);
  }, 120_000);

  // Only PostgreSQL can be shared by two server processes: the embedded database admits one
  // process (the second server could not open it), so there is no other process to be stale.
  describe.skipIf(!process.env.DATABASE_URL)("in another server process on the same PostgreSQL", () => {
    let second: StartedServer;
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), "prs-second-"));

    beforeAll(async () => {
      const port = String(await freePort());
      const env = { ...inject("serverEnv"), DATA_DIR: dir, PORT: port, PUBLIC_BASE_URL: `http://127.0.0.1:${port}`, WEBHOOK_WORKER: "off" };
      second = await startServer(env, path.join(dir, "server.log"));
    }, 90_000);

    afterAll(async () => {
      await second?.stop();
      fs.rmSync(dir, { recursive: true, force: true });
    });

    it("revoked through the first server, used through the second", async () => {
      await raceRepeatedly(second.baseUrl, (keyId) => admin("key", "revoke", "--key", keyId), 30, 60_000);
    }, 120_000);

    it("revoked through the second server, used through the first", async () => {
      const revokeViaSecond = (keyId: string) => adminViaServer(dir, second.baseUrl, ["key", "revoke", "--key", keyId]);
      await raceRepeatedly(baseUrl(), revokeViaSecond, 30, 60_000);
    }, 120_000);
  });
});
