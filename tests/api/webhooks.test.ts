import { randomBytes } from "node:crypto";
import fs from "node:fs";
import path from "node:path";
import { Webhook } from "standardwebhooks";
import { afterAll, beforeAll, describe, expect, inject, it } from "vitest";
import { call, issue, newAccount, newLiveAccount, registerHook, until, untilPast } from "../helpers";
import { untilDelivered, workerMarker } from "../outbox";
import { startReceiver, waitFor } from "../webhook-receiver";

let rx: Awaited<ReturnType<typeof startReceiver>>;
beforeAll(async () => {
  rx = await startReceiver();
});
afterAll(async () => {
  await rx.close();
});

let n = 0;
const hookFor = (key: string, behaviour = {}, body: Record<string, unknown> = {}) => registerHook(rx, key, behaviour, body);
const deliveries = async (key: string, id: string) => (await call("GET", `/api/v1/webhooks/${id}/deliveries`, { key })).body.data;

describe("webhook registration", () => {
  it("registers an endpoint, shows the secret once, lists and deletes it", async () => {
    const { sandboxKey } = await newAccount();
    const { hook } = await hookFor(sandboxKey, {}, { description: "orders", events: ["record.issued"] });
    expect(hook).toMatchObject({ object: "webhook", status: "enabled", events: ["record.issued"], description: "orders", environment: "sandbox" });
    expect(hook.id).toMatch(/^wh_/);
    expect(hook.secret).toMatch(/^whsec_[A-Za-z0-9+/]{43}=$/);
    expect(Buffer.from(hook.secret.slice(6), "base64")).toHaveLength(32);
    const list = await call("GET", "/api/v1/webhooks", { key: sandboxKey });
    expect(list.body.data).toHaveLength(1);
    expect(list.body.data[0].secret).toBeUndefined();
    const del = await call("DELETE", `/api/v1/webhooks/${hook.id}`, { key: sandboxKey });
    expect(del.body).toEqual({ object: "webhook", id: hook.id, deleted: true });
    expect((await call("GET", "/api/v1/webhooks", { key: sandboxKey })).body.data).toEqual([]);
    expect((await call("DELETE", `/api/v1/webhooks/${hook.id}`, { key: sandboxKey })).status).toBe(404);
  });

  it("refuses bad input and other accounts' webhooks", async () => {
    const a = await newAccount();
    const b = await newAccount();
    const bad = async (body: unknown) => (await call("POST", "/api/v1/webhooks", { key: a.sandboxKey, body })).body.error;
    expect(await bad({ url: "ftp://example.com/x" })).toMatchObject({ code: "invalid_webhook_url", param: "url" });
    expect(await bad({ url: "not a url" })).toMatchObject({ code: "invalid_webhook_url" });
    expect(await bad({ url: "https://user:pw@example.com/x" })).toMatchObject({ code: "invalid_webhook_url" });
    expect(await bad({ url: "https://example.com", events: ["record.deleted"] })).toMatchObject({ code: "invalid_value", param: "events[0]" });
    expect(await bad({ url: "https://example.com", secret: "mine" })).toMatchObject({ code: "unknown_field", param: "secret" });
    const { hook } = await hookFor(a.sandboxKey);
    for (const [m, p] of [["DELETE", ""], ["POST", "/test"], ["POST", "/enable"], ["GET", "/deliveries"]] as const) {
      const r = await call(m, `/api/v1/webhooks/${hook.id}${p}`, { key: b.sandboxKey });
      expect(r.status).toBe(404);
      expect(r.body.error.code).toBe("webhook_not_found");
    }
  });
});

describe("webhook destinations (SSRF guard)", () => {
  it("refuses private, link-local, unique-local and IPv4-compatible destinations even with WEBHOOK_ALLOW_INSECURE=1 (loopback only)", async () => {
    const { sandboxKey } = await newAccount();
    expect(inject("serverEnv").WEBHOOK_ALLOW_INSECURE).toBe("1");
    for (const url of [
      "http://169.254.169.254/latest/meta-data", "http://10.0.0.5/x", "http://192.168.1.1/x", "http://172.16.0.1/x", "http://100.64.0.1/x",
      "http://[fd00::1]/x", "http://[fe80::1]/x", "http://[::ffff:10.0.0.5]/x", "http://[::ffff:169.254.169.254]/x",
      "http://[::127.0.0.1]/x", "http://[::a00:5]/x", "http://[64:ff9b::a00:5]/x", "http://[2002:a00:5::1]/x", "http://0.0.0.0/x",
    ]) {
      const r = await call("POST", "/api/v1/webhooks", { key: sandboxKey, body: { url } });
      expect(r.status, url).toBe(422);
      expect(r.body.error, url).toMatchObject({ code: "invalid_webhook_url", param: "url" });
    }
    // Loopback stays allowed in this mode (the tests' receivers live there).
    const ok = await call("POST", "/api/v1/webhooks", { key: sandboxKey, body: { url: `${rx.base}/hook/loopback-ok` } });
    expect(ok.status).toBe(201);
    expect((await call("POST", "/api/v1/webhooks", { key: sandboxKey, body: { url: "http://localhost:9/x" } })).status).toBe(201);
  });
});

describe("the test receiver", () => {
  it("answers 400 to a delivery that does not verify and does not record it", async () => {
    const ep = rx.endpoint(`lone${n++}`);
    const secret = `whsec_${randomBytes(32).toString("base64")}`;
    ep.setSecret(secret);
    const body = JSON.stringify({ id: "evt_forged", type: "record.issued" });
    const post = (headers: Record<string, string>) =>
      fetch(ep.url, { method: "POST", headers: { "content-type": "application/json", ...headers }, body }).then((r) => r.status);
    const signed = (key: string, at: Date) => ({
      "webhook-id": "evt_forged", "webhook-timestamp": String(Math.floor(at.getTime() / 1000)),
      "webhook-signature": new Webhook(key).sign("evt_forged", at, body),
    });
    expect(await post(signed(`whsec_${randomBytes(32).toString("base64")}`, new Date()))).toBe(400); // another key
    expect(await post(signed(secret, new Date(Date.now() - 10 * 60_000)))).toBe(400); // stale timestamp
    expect(await post({ "webhook-id": "evt_forged" })).toBe(400); // unsigned
    expect(ep.received()).toEqual([]);
    expect(ep.rejected()).toBe(3);
    expect(await post(signed(secret, new Date()))).toBe(204); // the real thing is accepted
    expect(ep.received().map((r) => r.id)).toEqual(["evt_forged"]);
  });

  it("refuses the service's deliveries signed with another secret, which the service records as failed attempts", async () => {
    const { sandboxKey } = await newAccount();
    const { ep, hook } = await hookFor(sandboxKey);
    ep.setSecret(`whsec_${randomBytes(32).toString("base64")}`); // not the one the service signs with
    await issue(sandboxKey);
    const d = await waitForAttempts(sandboxKey, hook.id, 1);
    expect(d.attempts[0]).toMatchObject({ status_code: 400 });
    expect(ep.received()).toEqual([]);
    expect(ep.rejected()).toBeGreaterThanOrEqual(1);
    await call("DELETE", `/api/v1/webhooks/${hook.id}`, { key: sandboxKey });
  });
});

describe("webhook delivery", () => {
  it("delivers signed events from the outbox once each, for the key's environment and subscribed types", async () => {
    const { accountId, sandboxKey } = await newAccount();
    const all = await hookFor(sandboxKey);
    const onlyChanges = await hookFor(sandboxKey, {}, { events: ["record.status_changed"] });
    const rec = await issue(sandboxKey);
    await call("POST", `/api/v1/records/${rec.verification_id}/lifecycle`, { key: sandboxKey, body: { operation: "suspend", reason: "checking" } });
    await waitFor(() => all.ep.received().length >= 2 && onlyChanges.ep.received().length >= 1);
    // Nothing more may arrive: both events fanned out, and every delivery to the two endpoints final.
    const settled = await untilDelivered(accountId, [all.hook.id, onlyChanges.hook.id]);
    const statusesOf = (hookId: string) => settled.filter((d) => d.webhook_id === hookId).map((d) => d.status);
    expect(statusesOf(all.hook.id)).toEqual(["succeeded", "succeeded"]);
    expect(statusesOf(onlyChanges.hook.id)).toEqual(["succeeded"]);
    const got = all.ep.received();
    expect(all.ep.rejected()).toBe(0); // each verified with the endpoint's secret
    expect(got.map((r) => r.type)).toEqual(["record.issued", "record.status_changed"]);
    for (const r of got) {
      expect(r.body).toMatchObject({ environment: "sandbox", data: { record: { verification_id: rec.verification_id } } });
      expect(r.body.id).toBe(r.id);
      expect(r.id).toMatch(/^evt_/);
    }
    expect(got[1]!.body.data.record.status).toBe("suspended");
    expect(new Set(got.map((r) => r.id)).size).toBe(got.length); // no duplicates
    expect(onlyChanges.ep.received().map((r) => r.type)).toEqual(["record.status_changed"]);
    const d = await deliveries(sandboxKey, all.hook.id);
    expect(d.map((x: any) => x.status)).toEqual(["succeeded", "succeeded"]);
    expect(d[0].attempts[0]).toMatchObject({ status_code: 204, error: null });
  });

  it("retries on the schedule until the endpoint answers, keeping each attempt", async () => {
    const { sandboxKey } = await newAccount();
    const { ep, hook } = await hookFor(sandboxKey, { failTimes: 2 });
    await issue(sandboxKey);
    await waitFor(() => ep.received().length === 1);
    expect(ep.hits()).toBe(3);
    // The receiver has answered; the worker records the outcome (attempt + status, one transaction) just after.
    const d = await waitForAttempts(sandboxKey, hook.id, 3);
    expect(d.status).toBe("succeeded");
    expect(d.attempts.map((a: any) => a.status_code)).toEqual([500, 500, 204]);
    const times = d.attempts.map((a: any) => Date.parse(a.at));
    // The test schedule waits 150 ms (±10 % jitter) between tries.
    for (let i = 1; i < times.length; i++) expect(times[i] - times[i - 1]).toBeGreaterThanOrEqual(130);
    expect((await call("GET", "/api/v1/webhooks", { key: sandboxKey })).body.data[0].status).toBe("enabled");
  });

  it("gives up on an endpoint that hangs (timeout per attempt) or redirects, without following the redirect", async () => {
    const { sandboxKey } = await newAccount();
    const target = rx.endpoint(`target${n++}`);
    const redirecting = await hookFor(sandboxKey, { redirectTo: target.url });
    const hanging = await hookFor(sandboxKey, { hang: true });
    await issue(sandboxKey);
    const d1 = await waitForAttempts(sandboxKey, redirecting.hook.id, 1);
    expect(d1.attempts[0]).toMatchObject({ status_code: 302 });
    const d2 = await waitForAttempts(sandboxKey, hanging.hook.id, 1);
    expect(d2.attempts[0].status_code).toBeNull();
    expect(d2.attempts[0].error).toMatch(/no answer within 700 ms/);
    expect(d2.attempts[0].latency_ms).toBeGreaterThanOrEqual(650);
    expect(target.hits()).toBe(0);
  });

  it("disables the endpoint after the threshold of failures, mails the owner, and resumes on enable", async () => {
    const { accountId, sandboxKey } = await newAccount();
    const { ep, hook } = await hookFor(sandboxKey, { status: 500 });
    const rec = await issue(sandboxKey);
    const disabled = await pollUntil(async () => {
      const l = (await call("GET", "/api/v1/webhooks", { key: sandboxKey })).body.data[0];
      return l.status === "disabled" ? l : undefined;
    });
    expect(disabled.disabled_reason).toMatch(/4 consecutive failed delivery attempts/);
    const hitsAtDisable = ep.hits();
    expect(hitsAtDisable).toBe(4);
    // Nothing more is sent while disabled: once its delivery is due again, the worker goes round (a marker) and leaves it.
    const [held] = await deliveries(sandboxKey, hook.id);
    expect(held.status).toBe("pending");
    await untilPast(held.next_attempt_at);
    await workerMarker(rx);
    expect(ep.hits()).toBe(hitsAtDisable);
    // The owner was told by email (through the real SMTP capture).
    const mail = await pollUntil(async () => {
      const dir = inject("mailDir");
      const files = fs.existsSync(dir) ? fs.readdirSync(dir).map((f) => fs.readFileSync(path.join(dir, f), "utf8")) : [];
      return files.find((m) => m.includes(hook.id));
    });
    expect(mail).toMatch(/Subject: Webhook disabled/);
    expect(mail).toContain(hook.url);
    // Fixed and re-enabled: the pending delivery goes out.
    ep.behave({});
    const en = await call("POST", `/api/v1/webhooks/${hook.id}/enable`, { key: sandboxKey });
    expect(en.body).toMatchObject({ status: "enabled", disabled_reason: null });
    await waitFor(() => ep.received().length === 1);
    expect(ep.received()[0]!.body.data.record.verification_id).toBe(rec.verification_id);
    // Every send is an attempt: four before it was disabled, one after it was enabled, none between.
    const [done] = await untilDelivered(accountId, [hook.id]);
    expect(done).toMatchObject({ status: "succeeded", attempts: 5 });
    expect((await deliveries(sandboxKey, hook.id))[0].attempts.map((a: any) => a.status_code)).toEqual([500, 500, 500, 500, 204]);
    expect(ep.hits()).toBe(hitsAtDisable + 1);
  });

  it("disables the endpoint at once on 410 Gone, keeping the delivery for when it is enabled", async () => {
    const { accountId, sandboxKey } = await newAccount();
    const { ep, hook } = await hookFor(sandboxKey, { status: 410 });
    const rec = await issue(sandboxKey);
    const disabled = await pollUntil(async () => {
      const l = (await call("GET", "/api/v1/webhooks", { key: sandboxKey })).body.data[0];
      return l.status === "disabled" ? l : undefined;
    });
    expect(disabled.disabled_reason).toBe("The endpoint answered 410 Gone.");
    const [d] = await deliveries(sandboxKey, hook.id);
    expect(d.status).toBe("pending");
    expect(d.attempts.map((a: any) => a.status_code)).toEqual([410]); // one answer was enough (the threshold is 4)
    // Not sent again while disabled: once it is due, the worker goes round (a marker) and leaves it.
    await untilPast(d.next_attempt_at);
    await workerMarker(rx);
    expect(ep.hits()).toBe(1);
    expect(ep.received()).toEqual([]);
    ep.behave({});
    await call("POST", `/api/v1/webhooks/${hook.id}/enable`, { key: sandboxKey });
    await waitFor(() => ep.received().length === 1);
    expect(ep.received()[0]!.body.data.record.verification_id).toBe(rec.verification_id);
    // Every send is an attempt: the 410, then the one after enabling, none between.
    await untilDelivered(accountId, [hook.id]);
    expect((await deliveries(sandboxKey, hook.id))[0].attempts.map((a: any) => a.status_code)).toEqual([410, 204]);
    expect(ep.hits()).toBe(2);
  });

  it("keeps the events raised while an endpoint is disabled and delivers them in order once it is enabled", async () => {
    const { accountId, sandboxKey } = await newAccount();
    const { ep, hook } = await hookFor(sandboxKey, { status: 410 });
    const first = await issue(sandboxKey, { subject: "Backlog 0 Ltd" });
    await pollUntil(async () => ((await call("GET", "/api/v1/webhooks", { key: sandboxKey })).body.data[0].status === "disabled" ? true : undefined));
    const later = [];
    for (let i = 1; i <= 3; i++) later.push(await issue(sandboxKey, { subject: `Backlog ${i} Ltd` }));
    const susp = await call("POST", `/api/v1/records/${later[0].verification_id}/lifecycle`, { key: sandboxKey, body: { operation: "suspend", reason: "checking" } });
    expect(susp.status).toBe(200);
    // The fan-out keeps one pending delivery per event for the disabled endpoint ...
    const held = await pollUntil(async () => {
      const l = await deliveries(sandboxKey, hook.id);
      return l.length === 5 ? l : undefined;
    });
    expect(held.map((x: any) => x.status)).toEqual(["pending", "pending", "pending", "pending", "pending"]);
    // ... and sends nothing while it is disabled: once all are due, the worker goes round (a marker) and leaves them.
    for (const x of held) await untilPast(x.next_attempt_at);
    await workerMarker(rx);
    expect(ep.hits()).toBe(1);
    ep.behave({});
    expect((await call("POST", `/api/v1/webhooks/${hook.id}/enable`, { key: sandboxKey })).body.status).toBe("enabled");
    await waitFor(() => ep.received().length >= 5, 15_000);
    // Nothing more may arrive: every delivery to the endpoint is final; each event was sent once after enabling.
    const settled = await untilDelivered(accountId, [hook.id]);
    expect(settled.map((x) => [x.status, x.attempts])).toEqual([["succeeded", 2], ...Array.from({ length: 4 }, () => ["succeeded", 1])]);
    expect(ep.hits()).toBe(6);
    const got = ep.received();
    expect(got.map((r) => `${r.type} ${r.body.data.record.subject}`)).toEqual([
      "record.issued Backlog 0 Ltd", "record.issued Backlog 1 Ltd", "record.issued Backlog 2 Ltd", "record.issued Backlog 3 Ltd",
      "record.status_changed Backlog 1 Ltd",
    ]);
    expect(new Set(got.map((r) => r.id)).size).toBe(5);
    expect(got[0]!.body.data.record.verification_id).toBe(first.verification_id);
    const after = await pollUntil(async () => {
      const l = await deliveries(sandboxKey, hook.id);
      return l.every((x: any) => x.status === "succeeded") ? l : undefined;
    });
    expect(after).toHaveLength(5);
  });

  it("keeps accounts and environments apart: an endpoint receives only its own account's events of its own environment", async () => {
    const a = await newLiveAccount();
    const b = await newAccount();
    const aSandbox = await hookFor(a.sandboxKey);
    const aLive = await hookFor(a.liveKey);
    const bSandbox = await hookFor(b.sandboxKey);
    expect([aSandbox.hook.environment, aLive.hook.environment, bSandbox.hook.environment]).toEqual(["sandbox", "live", "sandbox"]);
    const r1 = await issue(a.sandboxKey, { subject: "A Sandbox Ltd" });
    const r2 = await issue(a.liveKey, { subject: "A Live Ltd" });
    const r3 = await issue(b.sandboxKey, { subject: "B Sandbox Ltd" });
    await waitFor(() => aSandbox.ep.received().length >= 1 && aLive.ep.received().length >= 1 && bSandbox.ep.received().length >= 1);
    // Nothing more may arrive: both accounts' events fanned out, every delivery to the three endpoints final, one each.
    const settled = await untilDelivered([a.accountId, b.accountId], [aSandbox.hook.id, aLive.hook.id, bSandbox.hook.id]);
    expect(settled.map((d) => d.webhook_id).sort()).toEqual([aSandbox.hook.id, aLive.hook.id, bSandbox.hook.id].sort());
    const seen = (h: typeof aSandbox) => h.ep.received().map((r) => [r.body.environment, r.body.data.record.verification_id]);
    expect(seen(aSandbox)).toEqual([["sandbox", r1.verification_id]]);
    expect(seen(aLive)).toEqual([["live", r2.verification_id]]);
    expect(seen(bSandbox)).toEqual([["sandbox", r3.verification_id]]);
  });

  it("sends a webhook.test event on request, to that endpoint only", async () => {
    const { accountId, sandboxKey } = await newAccount();
    const a = await hookFor(sandboxKey);
    const b = await hookFor(sandboxKey);
    const r = await call("POST", `/api/v1/webhooks/${a.hook.id}/test`, { key: sandboxKey });
    expect(r.status).toBe(202);
    await waitFor(() => a.ep.received().length === 1);
    expect(a.ep.received()[0]).toMatchObject({ type: "webhook.test" });
    // The test event was fanned out to a alone, and nothing is left to send: b gets nothing.
    const settled = await untilDelivered(accountId, [a.hook.id, b.hook.id]);
    expect(settled.map((d) => [d.webhook_id, d.event_id, d.status])).toEqual([[a.hook.id, a.ep.received()[0]!.id, "succeeded"]]);
    expect(b.ep.received()).toEqual([]);
  });
});

const pollUntil = <T>(fn: () => Promise<T | undefined>, timeoutMs = 10_000): Promise<T> => until("the condition polled for", fn, timeoutMs);

async function waitForAttempts(key: string, id: string, count: number) {
  return pollUntil(async () => {
    const [d] = await deliveries(key, id);
    return d && d.attempts.length >= count ? d : undefined;
  });
}
