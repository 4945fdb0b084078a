import { Webhook } from "standardwebhooks";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { call, issue, newAccount, newLiveAccount, registerHook, until, untilPast } from "../helpers";
import { startReceiver, waitFor } from "../webhook-receiver";

/**
 * Issue 30, part one: the events API (list, detail with every delivery attempt), replaying one
 * event to one endpoint, and rotating an endpoint's secret with an overlap. Deliveries are
 * checked on a real loopback receiver with the standardwebhooks library, not the service's code.
 */
let rx: Awaited<ReturnType<typeof startReceiver>>;
beforeAll(async () => {
  rx = await startReceiver();
});
afterAll(async () => {
  await rx.close();
});

const hookFor = (key: string, behaviour = {}, body: Record<string, unknown> = {}) => registerHook(rx, key, behaviour, body);

const eventsOf = async (key: string, query = "") => {
  const r = await call("GET", `/api/v1/events${query}`, { key });
  expect(r.status, r.text).toBe(200);
  return r.body;
};

describe("events", () => {
  it("lists the environment's events newest first, by type or record, in pages; another account sees none of them", async () => {
    const { sandboxKey, liveKey } = await newLiveAccount();
    const ids = [];
    for (let i = 0; i < 3; i++) ids.push((await issue(sandboxKey)).verification_id);
    const all = await eventsOf(sandboxKey);
    expect(all.data.map((e: any) => e.record_id)).toEqual([...ids].reverse());
    expect(all.data.every((e: any) => e.object === "event" && e.type === "record.issued" && e.environment === "sandbox")).toBe(true);
    expect(all.data[0].data.record.verification_id).toBe(ids[2]);
    expect(all.has_more).toBe(false);

    expect((await eventsOf(sandboxKey, `?record_id=${ids[1]}`)).data.map((e: any) => e.record_id)).toEqual([ids[1]]);
    expect((await eventsOf(sandboxKey, "?type=record.status_changed")).data).toEqual([]);
    const first = await eventsOf(sandboxKey, "?limit=2");
    expect(first.data).toHaveLength(2);
    expect(first.has_more).toBe(true);
    const second = await eventsOf(sandboxKey, `?limit=2&starting_after=${first.data[1].id}`);
    expect(second.data.map((e: any) => e.id)).toEqual([all.data[2].id]);
    expect(second.has_more).toBe(false);

    // The other environment of the same account, and another account: nothing, and 404 for the id.
    expect((await eventsOf(liveKey)).data).toEqual([]);
    const other = await newAccount("events-other");
    expect((await eventsOf(other.sandboxKey)).data).toEqual([]);
    const foreign = await call("GET", `/api/v1/events/${all.data[0].id}`, { key: other.sandboxKey });
    expect(foreign.status).toBe(404);
    expect(foreign.body.error.code).toBe("event_not_found");

    for (const [q, code] of [["?limit=0", "too_short"], ["?colour=red", "unknown_field"], ["?record_id=nope", "invalid_format"]]) {
      const r = await call("GET", `/api/v1/events${q}`, { key: sandboxKey });
      expect(r.status, q).toBeGreaterThanOrEqual(400);
      expect(r.status, q).toBeLessThan(500);
      expect(r.body.error.code, q).toBe(code);
    }
    const cursor = await call("GET", `/api/v1/events?starting_after=${all.data[0].id.replace(/.$/, "0")}`, { key: other.sandboxKey });
    expect(cursor.body.error).toMatchObject({ code: "invalid_value", param: "starting_after" });
    expect((await call("GET", "/api/v1/events/evt_nope", { key: sandboxKey })).body.error.code).toBe("event_not_found");
  });

  it("shows each endpoint's delivery with every attempt, including the answer's first 1 KiB", async () => {
    const { sandboxKey } = await newAccount("events-detail");
    const flaky = await hookFor(sandboxKey, { failTimes: 1 });
    const healthy = await hookFor(sandboxKey);
    const rec = await issue(sandboxKey);
    await waitFor(() => flaky.ep.received().length === 1 && healthy.ep.received().length === 1);
    const [event] = (await eventsOf(sandboxKey, `?record_id=${rec.verification_id}`)).data;
    const detail = await until("both deliveries recorded as succeeded", async () => {
      const r = await call("GET", `/api/v1/events/${event.id}`, { key: sandboxKey });
      expect(r.status, r.text).toBe(200);
      return r.body.deliveries.length === 2 && r.body.deliveries.every((d: any) => d.status === "succeeded") ? r.body : undefined;
    });
    expect(detail).toMatchObject({ object: "event", id: event.id, type: "record.issued", record_id: rec.verification_id });
    expect(detail.data).toEqual(JSON.parse(flaky.ep.received()[0]!.raw).data); // the delivered payload's data
    const byHook = Object.fromEntries(detail.deliveries.map((d: any) => [d.webhook_id, d]));
    expect(byHook[flaky.hook.id]).toMatchObject({ url: flaky.ep.url, next_attempt_at: null });
    expect(byHook[flaky.hook.id].attempts.map((a: any) => [a.status_code, a.response])).toEqual([[500, "temporary failure"], [204, ""]]);
    expect(byHook[flaky.hook.id].attempts[0].error).toBe("HTTP 500");
    expect(byHook[healthy.hook.id].attempts.map((a: any) => a.status_code)).toEqual([204]);
  });
});

describe("replay", () => {
  it("sends one event again to one endpoint with the same webhook-id, and refuses what is not there", async () => {
    const { sandboxKey } = await newAccount("replay");
    const { ep, hook } = await hookFor(sandboxKey);
    const other = await hookFor(sandboxKey);
    await issue(sandboxKey);
    await waitFor(() => ep.received().length === 1 && other.ep.received().length === 1);
    const eventId = ep.received()[0]!.id;
    const r = await call("POST", `/api/v1/webhooks/${hook.id}/replay`, { key: sandboxKey, body: { event_id: eventId } });
    expect(r.status, r.text).toBe(202);
    expect(r.body).toMatchObject({ object: "webhook_delivery", webhook_id: hook.id, event_id: eventId, event_type: "record.issued", status: "pending" });
    await waitFor(() => ep.received().length === 2);
    const [a, b] = ep.received();
    expect(b!.id).toBe(a!.id); // the same webhook-id: a receiver that de-duplicates sees it is the same event
    expect(b!.duplicate).toBe(true);
    expect(b!.raw).toBe(a!.raw); // the same bytes, freshly signed (verified by the receiver)
    // Only the endpoint asked for: the replay made no delivery to the other one, whose one delivery is final.
    const detail = await until("the replayed delivery recorded", async () => {
      const r = await call("GET", `/api/v1/events/${eventId}`, { key: sandboxKey });
      const mine = r.body.deliveries?.find((d: any) => d.webhook_id === hook.id);
      return mine?.status === "succeeded" && mine.attempts.length === 2 ? r.body : undefined;
    });
    const toOther = detail.deliveries.filter((d: any) => d.webhook_id === other.hook.id);
    expect(toOther.map((d: any) => [d.status, d.attempts.length])).toEqual([["succeeded", 1]]);
    expect(detail.deliveries).toHaveLength(2);
    expect(other.ep.received()).toHaveLength(1);

    const stranger = await newAccount("replay-other");
    const foreignHook = await call("POST", `/api/v1/webhooks/${hook.id}/replay`, { key: stranger.sandboxKey, body: { event_id: eventId } });
    expect(foreignHook.body.error.code).toBe("webhook_not_found");
    const strangersHook = await hookFor(stranger.sandboxKey);
    const foreignEvent = await call("POST", `/api/v1/webhooks/${strangersHook.hook.id}/replay`, { key: stranger.sandboxKey, body: { event_id: eventId } });
    expect(foreignEvent.status).toBe(404);
    expect(foreignEvent.body.error).toMatchObject({ code: "event_not_found", param: "event_id" });
    for (const body of [{}, { event_id: 5 }, { event_id: eventId, extra: 1 }]) {
      const bad = await call("POST", `/api/v1/webhooks/${hook.id}/replay`, { key: sandboxKey, body });
      expect(bad.status, JSON.stringify(body)).toBe(422);
    }
    expect(strangersHook.ep.received()).toEqual([]);
  });
});

describe("secret rotation", () => {
  it("signs with both secrets during the overlap, then with the new one only", async () => {
    const { sandboxKey } = await newAccount("rotation");
    const { ep, hook } = await hookFor(sandboxKey);
    const oldSecret: string = hook.secret;
    const r = await call("POST", `/api/v1/webhooks/${hook.id}/rotate-secret`, { key: sandboxKey, body: { expire_current_in_s: 3 } });
    expect(r.status, r.text).toBe(200);
    const newSecret: string = r.body.secret;
    expect(newSecret).toMatch(/^whsec_/);
    expect(newSecret).not.toBe(oldSecret);
    const until = Date.parse(r.body.previous_secret_expires_at);
    expect(until - Date.now()).toBeGreaterThan(1000);
    expect(until - Date.now()).toBeLessThanOrEqual(3000);
    const listed = (await call("GET", "/api/v1/webhooks", { key: sandboxKey })).body.data[0];
    expect(listed.secret).toBeUndefined(); // shown once
    expect(listed.previous_secret_expires_at).toBe(r.body.previous_secret_expires_at);

    // During the overlap: a receiver holding either secret verifies the delivery.
    ep.setSecret(newSecret);
    await call("POST", `/api/v1/webhooks/${hook.id}/test`, { key: sandboxKey });
    const during = await waitFor(() => ep.received()[0]);
    const headers = during.headers as Record<string, string>;
    expect(headers["webhook-signature"]!.split(" ").filter((s) => s.startsWith("v1,"))).toHaveLength(2);
    expect(new Webhook(oldSecret).verify(during.raw, headers)).toMatchObject({ type: "webhook.test" });
    expect(new Webhook(newSecret).verify(during.raw, headers)).toMatchObject({ type: "webhook.test" });

    // After it: only the new secret. time under test: the overlap's end, so wait for the clock to pass it.
    await untilPast(r.body.previous_secret_expires_at, 300);
    expect((await call("GET", "/api/v1/webhooks", { key: sandboxKey })).body.data[0].previous_secret_expires_at).toBeNull();
    await call("POST", `/api/v1/webhooks/${hook.id}/test`, { key: sandboxKey });
    const after = await waitFor(() => ep.received()[1]);
    const afterHeaders = after.headers as Record<string, string>;
    expect(afterHeaders["webhook-signature"]!.split(" ").filter((s) => s.startsWith("v1,"))).toHaveLength(1);
    expect(new Webhook(newSecret).verify(after.raw, afterHeaders)).toMatchObject({ type: "webhook.test" });
    expect(() => new Webhook(oldSecret).verify(after.raw, afterHeaders)).toThrow();
  });

  it("stops the old secret at once with expire_current_in_s 0, and refuses bad overlaps", async () => {
    const { sandboxKey } = await newAccount("rotation-now");
    const { ep, hook } = await hookFor(sandboxKey);
    const r = await call("POST", `/api/v1/webhooks/${hook.id}/rotate-secret`, { key: sandboxKey, body: { expire_current_in_s: 0 } });
    expect(r.body.previous_secret_expires_at).toBeNull();
    ep.setSecret(r.body.secret);
    await call("POST", `/api/v1/webhooks/${hook.id}/test`, { key: sandboxKey });
    const got = await waitFor(() => ep.received()[0]);
    expect(() => new Webhook(hook.secret).verify(got.raw, got.headers as Record<string, string>)).toThrow();
    const dflt = await call("POST", `/api/v1/webhooks/${hook.id}/rotate-secret`, { key: sandboxKey, body: {} });
    expect(Date.parse(dflt.body.previous_secret_expires_at) - Date.now()).toBeGreaterThan(86_400_000 - 60_000); // a day by default
    for (const body of [{ expire_current_in_s: -1 }, { expire_current_in_s: 604_801 }, { expire_current_in_s: "60" }, { expire_current_in_s: 1.5 }]) {
      const bad = await call("POST", `/api/v1/webhooks/${hook.id}/rotate-secret`, { key: sandboxKey, body });
      expect(bad.status, JSON.stringify(body)).toBe(422);
    }
    const stranger = await newAccount("rotation-other");
    expect((await call("POST", `/api/v1/webhooks/${hook.id}/rotate-secret`, { key: stranger.sandboxKey, body: {} })).body.error.code).toBe("webhook_not_found");
  });
});
