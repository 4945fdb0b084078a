import { createPublicKey, randomBytes, verify } from "node:crypto";
import { afterAll, describe, expect, it } from "vitest";
import { until } from "../helpers";
import { startReceiver, type Received } from "../webhook-receiver";
import { holdKeys as holdDataDirKeys, newKey, signingGlobals } from "./keyring";
import { dataLayerTest } from "./setup";

// In-process: a delivery worker that runs apart from the server (scripts/worker.ts) joins the
// published key set as a server does, and signs v1a only with a key the JWKS lists — also
// while its newest local key is not published yet (a rotation in progress). On a database of
// its own, so the test server's worker (another key) never delivers these events.
const { dir, db, sandboxCustomer, webhookEndpoint, raiseEvent } = await dataLayerTest({
  prefix: "prs-v1a-", ownDatabase: "v1a", env: { WEBHOOK_ALLOW_INSECURE: "1" },
});
const { getHandle } = await import("@/lib/db/client");
const { runWorkerRound } = await import("@/lib/webhooks/delivery-worker");
const { signingKeys } = await import("@/drizzle/schema");
const { joinPublishedKeys, loadPublishedKeys, publishedJwks } = await import("@/lib/signing/published-keys");
const { inArray } = await import("drizzle-orm");

const g = signingGlobals;
const suffix = Date.now().toString(36);
const kids = { a: `wa-${suffix}`, b: `wb-${suffix}` };
const holdKeys = (held: { kid: string }[]) => holdDataDirKeys(dir, held);

const rx = await startReceiver();
afterAll(async () => {
  await rx.close();
  g.__prsKeyring = undefined;
  g.__prsPublished = undefined;
  await db.delete(signingKeys).where(inArray(signingKeys.kid, Object.values(kids).flatMap((k) => [k, `sbx-${k}`])));
});

/** One event to a fresh endpoint, sent by one worker round; the delivery as received. */
async function deliverOne(): Promise<Received> {
  const { accountId } = await sandboxCustomer({ tag: "v1a" });
  const ep = rx.endpoint(`v1a-${randomBytes(3).toString("hex")}`);
  await webhookEndpoint(accountId, ep);
  await raiseEvent(accountId, {});
  await runWorkerRound(db);
  await until("the delivery at the endpoint", () => ep.received().length >= 1, 10_000, 50);
  expect(ep.rejected()).toBe(0);
  return ep.received()[0]!;
}

/** v1a checked as a receiver would: the key named by webhook-key-id, from the published JWKS. */
async function verifiesV1a(r: Received) {
  const kid = String(r.headers["webhook-key-id"]);
  const jwk = (await publishedJwks(db)).keys.find((k) => k.kid === kid);
  if (!jwk) return { kid, published: false, ok: false };
  const key = createPublicKey({ key: { kty: "OKP", crv: "Ed25519", x: jwk.x }, format: "jwk" });
  const sig = String(r.headers["webhook-signature"]).split(" ").find((s) => s.startsWith("v1a,"))!.slice(4);
  const content = Buffer.from(`${r.headers["webhook-id"]}.${r.headers["webhook-timestamp"]}.${r.raw}`, "utf8");
  return { kid, published: true, ok: verify(null, content, key, Buffer.from(sig, "base64")) };
}

describe("a separate delivery worker's v1a key", () => {
  it("is published before the worker signs, and stays a published one while a newer local key is not", async () => {
    const [a, b] = await Promise.all([newKey(kids.a), newKey(kids.b)]);
    // The worker's start (scripts/worker.ts): its key a is published, then it signs with a.
    holdKeys([a]);
    g.__prsPublished = undefined;
    await joinPublishedKeys(await getHandle());
    expect(await verifiesV1a(await deliverOne())).toEqual({ kid: kids.a, published: true, ok: true });

    // A rotation lands in its keys file (b), not yet published: it keeps signing with a …
    holdKeys([a, b]);
    await loadPublishedKeys(db);
    expect(await verifiesV1a(await deliverOne())).toEqual({ kid: kids.a, published: true, ok: true });
    // … asked for b's publication meanwhile; once published, b signs.
    await until("b to be published", async () => (await publishedJwks(db)).keys.some((k) => k.kid === kids.b), 10_000, 20);
    await loadPublishedKeys(db);
    expect(await verifiesV1a(await deliverOne())).toEqual({ kid: kids.b, published: true, ok: true });
  });
});
