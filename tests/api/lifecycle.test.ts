import { describe, expect, it } from "vitest";
import { call, issue, newAccount, sleep } from "../helpers";

type Op = "suspend" | "reinstate" | "revoke" | "expire" | "supersede";
const OPS: Op[] = ["suspend", "reinstate", "revoke", "expire", "supersede"];

/** CONTRACT, Lifecycle: from-state → operation → next state (absent = 409). */
const TABLE: Record<string, Partial<Record<Op, string>>> = {
  active: { suspend: "suspended", revoke: "revoked", expire: "expired", supersede: "superseded" },
  suspended: { reinstate: "active", revoke: "revoked", expire: "expired", supersede: "superseded" },
  revoked: {},
  expired: {},
  superseded: {},
};

const move = (key: string, id: string, operation: Op, extra: Record<string, unknown> = {}) =>
  call("POST", `/api/v1/records/${id}/lifecycle`, { key, body: { operation, reason: `test ${operation}`, ...extra } });

/** Bring a fresh record into `state` through allowed moves. */
async function recordIn(key: string, state: string): Promise<string> {
  const id = (await issue(key)).verification_id;
  const path: Record<string, Op[]> = {
    active: [], suspended: ["suspend"], revoked: ["revoke"], expired: ["expire"], superseded: ["supersede"],
  };
  for (const op of path[state]!) {
    const extra = op === "supersede" ? { superseded_by: (await issue(key)).verification_id } : {};
    expect((await move(key, id, op, extra)).status).toBe(200);
  }
  return id;
}

describe("lifecycle transitions", () => {
  for (const [from, allowed] of Object.entries(TABLE)) {
    for (const op of OPS) {
      const to = allowed[op];
      it(`${from} --${op}--> ${to ?? "409"}`, async () => {
        const { sandboxKey } = await newAccount();
        const id = await recordIn(sandboxKey, from);
        const extra = op === "supersede" ? { superseded_by: (await issue(sandboxKey)).verification_id } : {};
        const before = (await call("GET", `/api/v1/records/${id}`, { key: sandboxKey })).body;
        const r = await move(sandboxKey, id, op, extra);
        if (to) {
          expect(r.status).toBe(200);
          expect(r.body.status).toBe(to);
          expect(r.body.lifecycle.history).toHaveLength(before.lifecycle.history.length + 1);
          expect(r.body.lifecycle.history.slice(0, -1)).toEqual(before.lifecycle.history);
          expect(r.body.lifecycle.history.at(-1)).toMatchObject({ status: to, reason: `test ${op}`, by: "owner" });
          const status = await call("GET", `/api/v1/records/${id}/status`);
          expect(status.body.status).toBe(to);
        } else {
          expect(r.status).toBe(409);
          expect(r.body.error).toMatchObject({ type: "conflict", code: "invalid_transition", param: "operation" });
          const after = (await call("GET", `/api/v1/records/${id}`, { key: sandboxKey })).body;
          expect(after).toEqual(before);
        }
      });
    }
  }

  it("refuses every operation on a pending_review submission", async () => {
    const { sandboxKey } = await newAccount();
    const sub = await call("POST", "/api/v1/records", {
      key: sandboxKey,
      body: { subject: "S", claim_type: "award", claim: "Won it.", source_name: "Src", source_url: "https://example.org/a", checked_at: "2026-11-01T00:00:00Z" },
    });
    expect(sub.status).toBe(202);
    for (const op of OPS) {
      const r = await move(sandboxKey, sub.body.verification_id, op, op === "supersede" ? { superseded_by: (await issue(sandboxKey)).verification_id } : {});
      expect(r.status).toBe(409);
      expect(r.body.error.code).toBe("invalid_transition");
    }
  });

  it("supersede needs an active record of the same account, environment and claim type", async () => {
    const a = await newAccount();
    const b = await newAccount();
    const id = (await issue(a.sandboxKey)).verification_id;
    const missing = await move(a.sandboxKey, id, "supersede");
    expect(missing.status).toBe(422);
    expect(missing.body.error).toMatchObject({ code: "missing_field", param: "superseded_by" });
    const self = await move(a.sandboxKey, id, "supersede", { superseded_by: id });
    expect(self.body.error).toMatchObject({ code: "invalid_superseding_record", param: "superseded_by" });
    const foreign = (await issue(b.sandboxKey)).verification_id;
    expect((await move(a.sandboxKey, id, "supersede", { superseded_by: foreign })).body.error.code).toBe("invalid_superseding_record");
    const revoked = await recordIn(a.sandboxKey, "revoked");
    expect((await move(a.sandboxKey, id, "supersede", { superseded_by: revoked })).body.error.code).toBe("invalid_superseding_record");
    const extraOnSuspend = await move(a.sandboxKey, id, "suspend", { superseded_by: foreign });
    expect(extraOnSuspend.body.error).toMatchObject({ code: "field_not_allowed", param: "superseded_by" });
    const next = (await issue(a.sandboxKey)).verification_id;
    const ok = await move(a.sandboxKey, id, "supersede", { superseded_by: next });
    expect(ok.status).toBe(200);
    expect(ok.body).toMatchObject({ status: "superseded", superseded_by: next });
    const page = await call("GET", `/r/${id}`);
    expect(page.text).toContain(`/r/${next}`);
  });

  it("a status answer is never served stale after a change", async () => {
    const { sandboxKey } = await newAccount();
    const id = (await issue(sandboxKey)).verification_id;
    expect((await call("GET", `/api/v1/records/${id}/status`)).body.status).toBe("active");
    await move(sandboxKey, id, "suspend");
    expect((await call("GET", `/api/v1/records/${id}/status`)).body.status).toBe("suspended");
    await move(sandboxKey, id, "reinstate");
    expect((await call("GET", `/api/v1/records/${id}/status`)).body.status).toBe("active");
  });

  it("expires automatically: reads as expired at once, then the sweep persists it", async () => {
    const { sandboxKey } = await newAccount();
    const expiresAt = new Date(Date.now() + 2500).toISOString();
    const rec = await issue(sandboxKey, { expires_at: expiresAt });
    expect(rec.lifecycle.expires_at).toBe(expiresAt);
    const early = await call("GET", `/api/v1/records/${rec.verification_id}/status`);
    expect(early.body.status).toBe("active");
    expect(Number(/max-age=(\d+)/.exec(early.headers.get("cache-control")!)?.[1])).toBeLessThanOrEqual(3);
    await sleep(3000);
    const status = await call("GET", `/api/v1/records/${rec.verification_id}/status`);
    expect(status.body.status).toBe("expired");
    expect(status.body.status_changed_at).toBe(expiresAt);
    await sleep(700);
    const got = await call("GET", `/api/v1/records/${rec.verification_id}`, { key: sandboxKey });
    expect(got.body.status).toBe("expired");
    expect(got.body.lifecycle.history.at(-1)).toMatchObject({ status: "expired", at: expiresAt, by: "system" });
    const page = await call("GET", `/r/${rec.verification_id}`);
    expect(page.text).toContain('data-status="expired"');
    const r = await move(sandboxKey, rec.verification_id, "reinstate");
    expect(r.status).toBe(409);
  });
});
