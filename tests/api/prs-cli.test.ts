import { execFile, spawn } from "node:child_process";
import fs from "node:fs";
import http from "node:http";
import type { AddressInfo } from "node:net";
import os from "node:os";
import path from "node:path";
import { promisify } from "node:util";
import { Webhook } from "standardwebhooks";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { baseUrl, call, newAccount, until } from "../helpers";
import { startReceiver, waitFor } from "../webhook-receiver";

/**
 * The `prs` command (packages/cli) against the running server, as a developer runs it: its own
 * config folder, real processes, a real local endpoint that checks every forwarded event with
 * the standardwebhooks library and the secret `prs listen` printed.
 */
const run = promisify(execFile);
const root = path.resolve(import.meta.dirname, "..", "..");
const tsx = path.join(root, "node_modules", ".bin", "tsx");
const main = path.join(root, "packages", "cli", "src", "main.ts");

let home: string;
let env: NodeJS.ProcessEnv;
beforeAll(() => {
  home = fs.mkdtempSync(path.join(os.tmpdir(), "prs-cli-"));
  env = { ...process.env, HOME: home, XDG_CONFIG_HOME: path.join(home, ".config"), PRS_API_KEY: "", PRS_BASE_URL: "" };
});
afterAll(() => fs.rmSync(home, { recursive: true, force: true }));

async function prs(...args: string[]) {
  try {
    const { stdout, stderr } = await run(tsx, [main, ...args], { cwd: root, env, timeout: 60_000 });
    return { code: 0, stdout, stderr };
  } catch (e: any) {
    return { code: e.code as number, stdout: String(e.stdout), stderr: String(e.stderr) };
  }
}
const json = (s: string) => JSON.parse(s.trim().split("\n").at(-1)!);

describe("prs, the command line", () => {
  it("logs in (a 0600 file in the OS config folder), creates and reads records, lists and replays events", async () => {
    const { sandboxKey } = await newAccount("prs-cli");
    expect((await prs("records", "get", "PRS-00000000000000000000")).stderr).toMatch(/Not logged in/);
    expect((await prs("login", "--api-key", "prs_sandbox_nope")).code).toBe(2);
    const wrong = await prs("login", "--api-key", `prs_sandbox_${"A".repeat(32)}`, "--base-url", baseUrl());
    expect(wrong.code).toBe(1);
    expect(wrong.stderr).toContain("invalid_api_key");

    const login = await prs("login", "--api-key", sandboxKey, "--base-url", baseUrl());
    expect(login.code, login.stderr).toBe(0);
    const file = path.join(home, ".config", "prs", "config.json");
    expect(json(login.stdout)).toMatchObject({ logged_in: true, environment: "sandbox", config: file });
    expect(fs.statSync(file).mode & 0o777).toBe(0o600);
    expect(fs.statSync(path.dirname(file)).mode & 0o777).toBe(0o700);
    expect(JSON.parse(fs.readFileSync(file, "utf8"))).toEqual({ api_key: sandboxKey, base_url: baseUrl() });

    const created = await prs("records", "create", "--subject", "Cli Made Ltd", "--claim", "Cli Made Ltd is an active company.");
    expect(created.code, created.stderr).toBe(0);
    const rec = json(created.stdout);
    expect(rec).toMatchObject({ subject: "Cli Made Ltd", status: "active", environment: "sandbox" });
    expect(json((await prs("records", "get", rec.verification_id)).stdout).verification_id).toBe(rec.verification_id);
    expect(json((await prs("records", "status", rec.verification_id)).stdout)).toMatchObject({ verification_id: rec.verification_id, status: "active" });

    const listed = (await prs("events", "--record", rec.verification_id)).stdout.trim().split("\n").map((l) => JSON.parse(l));
    expect(listed.map((e) => [e.type, e.record_id])).toEqual([["record.issued", rec.verification_id]]);

    const rx = await startReceiver();
    try {
      const ep = rx.endpoint("prs-cli-replay");
      const hook = await call("POST", "/api/v1/webhooks", { key: sandboxKey, body: { url: ep.url } });
      ep.setSecret(hook.body.secret);
      const replayed = await prs("replay", listed[0].id, "--webhook", hook.body.id);
      expect(replayed.code, replayed.stderr).toBe(0);
      expect(json(replayed.stdout)).toMatchObject({ event_id: listed[0].id, status: "pending" });
      const got = await waitFor(() => ep.received()[0], 15_000);
      expect(got.id).toBe(listed[0].id);
    } finally {
      await rx.close();
    }
    const refused = await prs("replay", "evt_000000000000000000000000", "--webhook", "wh_00000000000000000000");
    expect(refused.code).toBe(1);
    expect(JSON.parse(refused.stderr).error.code).toBe("webhook_not_found");
  });

  it("listen forwards a real event, signed with the secret it printed, to a local server that verifies it", async () => {
    const { sandboxKey } = await newAccount("prs-listen");
    expect((await prs("login", "--api-key", sandboxKey, "--base-url", baseUrl())).code).toBe(0);
    const arrived: { type: string; data: any; id: string }[] = [];
    let secret = "";
    let refused = 0;
    const local = http.createServer((req, res) => {
      const chunks: Buffer[] = [];
      req.on("data", (c: Buffer) => chunks.push(c));
      req.on("end", () => {
        try {
          arrived.push(new Webhook(secret).verify(Buffer.concat(chunks).toString("utf8"), req.headers as Record<string, string>) as any);
          res.writeHead(204).end();
        } catch {
          refused++;
          res.writeHead(400).end();
        }
      });
    });
    await new Promise<void>((r) => local.listen(0, "127.0.0.1", r));
    const url = `http://127.0.0.1:${(local.address() as AddressInfo).port}/webhooks`;
    const child = spawn(tsx, [main, "listen", "--forward-to", url, "--interval-ms", "200"], { cwd: root, env });
    let out = "";
    child.stdout.on("data", (c: Buffer) => (out += c.toString()));
    child.stderr.on("data", (c: Buffer) => (out += c.toString()));
    try {
      secret = (await until("listen's ready line", () => /signing secret is (whsec_\S+)/.exec(out)?.[1], 30_000))!;
      const trig = await prs("trigger", "record.issued");
      expect(trig.code, trig.stderr).toBe(0);
      const { verification_id } = json(trig.stdout);
      const event = await until("the forwarded event", () => arrived.find((e) => e.data?.record?.verification_id === verification_id), 20_000);
      expect(event.type).toBe("record.issued");
      expect(event.id).toMatch(/^evt_/);
      expect(refused).toBe(0);
      await until("the log line", () => out.includes(`--> record.issued ${event.id} ${verification_id} [204]`), 5000);
      expect(arrived.filter((e) => e.id === event.id)).toHaveLength(1); // once
    } finally {
      child.kill("SIGTERM");
      await new Promise((r) => child.once("exit", r));
      local.close();
    }
  });

  it("trigger refuses a live key: a test event is never a live statement", async () => {
    const saved = env;
    env = { ...saved, PRS_API_KEY: `prs_live_${"B".repeat(32)}`, PRS_BASE_URL: baseUrl() };
    try {
      const r = await prs("trigger", "record.issued");
      expect(r.code).toBe(2);
      expect(r.stderr).toContain("needs a sandbox key");
    } finally {
      env = saved;
    }
  });
});
