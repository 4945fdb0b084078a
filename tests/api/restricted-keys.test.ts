import { describe, expect, it } from "vitest";
import { accountWithResources, bodyFor, documentedOperations, pathFor } from "../api-operations";
import { admin, call, issue, newAccount } from "../helpers";

/**
 * Restricted API keys (issue 30), driven from the published OpenAPI document: every operation
 * that takes a key names one scope; a key without it is refused with 403 insufficient_scope
 * naming that scope, and a key with only that scope is not.
 */
const ALL = ["records:read", "records:write", "lifecycle", "challenges", "webhooks", "mandate_keys", "watches", "account"];

/** Scopes that do not grant `scope` (records:write grants records:read too). */
const allBut = (scope: string) => ALL.filter((s) => s !== scope && !(scope === "records:read" && s === "records:write"));

async function keyWith(accountId: string, scopes: string[]) {
  const k = await admin("key", "create", "--account", accountId, "--env", "sandbox", "--scopes", scopes.join(","));
  expect(k.scopes).toEqual(ALL.filter((s) => scopes.includes(s)));
  return k.key as string;
}

describe("restricted keys over every keyed operation of the OpenAPI document", () => {
  it("refuses an operation outside the key's scopes with insufficient_scope naming the scope, and allows it with the scope", async () => {
    const ops = (await documentedOperations()).filter((o) => o.scope !== null);
    expect(ops.length).toBeGreaterThanOrEqual(30);
    expect(new Set(ops.map((o) => o.scope))).toEqual(new Set(ALL)); // every scope guards something
    const owner = await accountWithResources();
    const keys = new Map<string, { without: string; only: string }>();
    for (const scope of ALL) keys.set(scope, { without: await keyWith(owner.accountId, allBut(scope)), only: await keyWith(owner.accountId, [scope]) });

    for (const op of ops) {
      const p = pathFor(op, owner.fixtures);
      const { without, only } = keys.get(op.scope!)!;
      const refused = await call(op.method, p, { key: without, body: bodyFor(op) });
      const label = `${op.method} ${op.template} (${op.scope})`;
      expect(refused.status, `${label}: ${refused.text}`).toBe(403);
      expect(refused.body.error, label).toMatchObject({ type: "authentication_error", code: "insufficient_scope" });
      expect(refused.body.error.message, label).toContain(`'${op.scope}'`);
      expect(refused.headers.get("www-authenticate"), label).toBe(`Bearer error="insufficient_scope", scope="${op.scope}"`);
      expect(op.codes["403"] ?? [], `${label} documents insufficient_scope`).toContain("insufficient_scope");
    }
    // Allowed with the scope: whatever else it answers, never insufficient_scope (run after the refusals: some of these change things).
    for (const op of ops) {
      const r = await call(op.method, pathFor(op, owner.fixtures), { key: keys.get(op.scope!)!.only, body: bodyFor(op) });
      expect(r.body?.error?.code, `${op.method} ${op.template} with '${op.scope}': ${r.text.slice(0, 200)}`).not.toBe("insufficient_scope");
      expect(r.status, `${op.method} ${op.template}`).toBeLessThan(500);
    }
  });

  it("a key made through the API gets at most its maker's scopes, and does only what they allow", async () => {
    const a = await newAccount("scoped");
    // An unrestricted key makes a records-only key for an agent.
    const made = await call("POST", "/api/v1/api-keys", { key: a.sandboxKey, body: { scopes: ["records:write"] } });
    expect(made.status, made.text).toBe(201);
    expect(made.body).toMatchObject({ object: "api_key", environment: "sandbox", scopes: ["records:write"], revoked_at: null });
    expect(made.body.key).toMatch(/^prs_sandbox_/);
    const agent: string = made.body.key;
    const rec = await issue(agent); // records:write
    expect((await call("GET", `/api/v1/records/${rec.verification_id}`, { key: agent })).status).toBe(200); // write includes read
    const lifecycle = await call("POST", `/api/v1/records/${rec.verification_id}/lifecycle`, { key: agent, body: { operation: "revoke", reason: "agent gone rogue" } });
    expect(lifecycle.status).toBe(403);
    expect(lifecycle.body.error.message).toContain("'lifecycle'");
    expect((await call("GET", `/api/v1/records/${rec.verification_id}`, { key: a.sandboxKey })).body.status).toBe("active");
    for (const [m, p] of [["GET", "/api/v1/webhooks"], ["GET", "/api/v1/account"], ["GET", "/api/v1/api-keys"]] as const) {
      expect((await call(m, p, { key: agent })).body.error?.code, p).toBe("insufficient_scope");
    }

    // A restricted key with `account` cannot widen itself through a new key.
    const keyMaker = (await call("POST", "/api/v1/api-keys", { key: a.sandboxKey, body: { scopes: ["account", "records:read"] } })).body.key as string;
    const wider = await call("POST", "/api/v1/api-keys", { key: keyMaker, body: { scopes: ["records:write"] } });
    expect(wider.status).toBe(403);
    expect(wider.body.error).toMatchObject({ code: "insufficient_scope", param: "scopes" });
    const inherits = await call("POST", "/api/v1/api-keys", { key: keyMaker, body: {} });
    expect(inherits.status, inherits.text).toBe(201);
    expect(inherits.body.scopes).toEqual(["records:read", "account"]);
    const narrower = await call("POST", "/api/v1/api-keys", { key: keyMaker, body: { scopes: ["records:read"] } });
    expect(narrower.body.scopes).toEqual(["records:read"]);

    // The list shows every key of the environment with its scopes, never a secret.
    const list = await call("GET", "/api/v1/api-keys", { key: a.sandboxKey });
    expect(list.status).toBe(200);
    const byId = Object.fromEntries(list.body.data.map((k: any) => [k.id, k]));
    expect(byId[made.body.id].scopes).toEqual(["records:write"]);
    expect(list.body.data.some((k: any) => k.scopes === null)).toBe(true); // the account's first key: unrestricted
    for (const k of [agent, keyMaker]) expect(list.text).not.toContain(k);

    // Revoking: never a key wider than the revoker's own; a revoked key is refused at once; another account's is 404.
    const ownerKeyId = list.body.data.find((k: any) => k.scopes === null).id;
    const widerRevoke = await call("DELETE", `/api/v1/api-keys/${ownerKeyId}`, { key: keyMaker });
    expect(widerRevoke.status).toBe(403);
    expect(widerRevoke.body.error).toMatchObject({ code: "insufficient_scope", param: "id" });
    expect((await call("GET", "/api/v1/api-keys", { key: a.sandboxKey })).status).toBe(200); // the owner's key still works
    const revoked = await call("DELETE", `/api/v1/api-keys/${narrower.body.id}`, { key: keyMaker });
    expect(revoked.status, revoked.text).toBe(200);
    expect(revoked.body.revoked_at).not.toBeNull();
    expect((await call("GET", "/api/v1/records", { key: narrower.body.key })).body.error.code).toBe("api_key_revoked");
    const stranger = await newAccount("scoped-other");
    const foreign = await call("DELETE", `/api/v1/api-keys/${made.body.id}`, { key: stranger.sandboxKey });
    expect(foreign.status).toBe(404);
    expect(foreign.body.error.code).toBe("api_key_not_found");
    expect((await call("GET", "/api/v1/records", { key: agent })).status).toBe(200); // untouched

    for (const body of [{ scopes: [] }, { scopes: ["records:delete"] }, { scopes: "records:read" }, { scopes: ["account"], name: "x" }]) {
      const bad = await call("POST", "/api/v1/api-keys", { key: a.sandboxKey, body });
      expect(bad.status, JSON.stringify(body)).toBe(422);
    }
  });
});
