import { spawn, type ChildProcess } from "node:child_process";
import fs from "node:fs";
import net from "node:net";
import os from "node:os";
import path from "node:path";
import type { TestProject } from "vitest/node";
import { startDnsServer } from "./dns-server";

/**
 * Starts the real built server (`next start`) on a free loopback port with a fresh data
 * folder — embedded PGlite, or the PostgreSQL in DATABASE_URL — for the API tests.
 */
declare module "vitest" {
  export interface ProvidedContext {
    baseUrl: string;
    dataDir: string;
    serverEnv: Record<string, string>;
    dnsZoneFile: string;
  }
}

export const freePort = () =>
  new Promise<number>((resolve, reject) => {
    const s = net.createServer();
    s.listen(0, "127.0.0.1", () => {
      const { port } = s.address() as net.AddressInfo;
      s.close(() => resolve(port));
    });
    s.on("error", reject);
  });

let server: ChildProcess | undefined;
let dns: { port: number; close: () => Promise<void> } | undefined;

async function waitReady(baseUrl: string, dataDir: string) {
  const deadline = Date.now() + 60_000;
  for (;;) {
    if (server!.exitCode !== null) throw new Error(`server exited early; see ${dataDir}/server.log`);
    try {
      const r = await fetch(`${baseUrl}/api/health`);
      if (r.ok) return;
    } catch {
      /* not listening yet */
    }
    if (Date.now() > deadline) throw new Error(`server did not become ready; see ${dataDir}/server.log`);
    await new Promise((r) => setTimeout(r, 200));
  }
}

export default async function setup(project: TestProject) {
  const root = path.resolve(import.meta.dirname, "..");
  const port = await freePort();
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), "prs-test-"));
  const baseUrl = `http://127.0.0.1:${port}`;
  const dnsZoneFile = path.join(dataDir, "dns-zone.json");
  dns = await startDnsServer(dnsZoneFile);
  const serverEnv: Record<string, string> = {
    PORT: String(port),
    DATA_DIR: dataDir,
    PUBLIC_BASE_URL: baseUrl,
    EXPIRY_SWEEP_INTERVAL_MS: "300",
    MIN_VALIDITY_SECONDS: "1",
    PLAN_LIMITS: JSON.stringify({ starter: { live_records: 3 } }),
    NEXT_TELEMETRY_DISABLED: "1",
    DNS_SERVERS: `127.0.0.1:${dns.port}`,
    DNS_TIMEOUT_MS: "250",
    DOMAIN_RECHECK_INTERVAL_MS: "1500",
    // bsc has an RPC configured that never answers: smart-account checks there are "unreachable".
    EVM_RPC_URLS: JSON.stringify({ bsc: `http://127.0.0.1:${await freePort()}` }),
    RPC_TIMEOUT_MS: "500",
  };
  if (process.env.DATABASE_URL) serverEnv.DATABASE_URL = process.env.DATABASE_URL;
  const log = fs.createWriteStream(path.join(dataDir, "server.log"));
  server = spawn(path.join(root, "node_modules", ".bin", "next"), ["start", "-p", String(port), "-H", "127.0.0.1"], {
    cwd: root,
    env: { ...process.env, ...serverEnv },
    stdio: ["ignore", "pipe", "pipe"],
  });
  server.stdout!.pipe(log);
  server.stderr!.pipe(log);
  try {
    await waitReady(baseUrl, dataDir);
  } catch (e) {
    server.kill("SIGKILL");
    process.stderr.write(fs.readFileSync(path.join(dataDir, "server.log"), "utf8").slice(0, 4000));
    throw e;
  }
  project.provide("baseUrl", baseUrl);
  project.provide("dataDir", dataDir);
  project.provide("serverEnv", serverEnv);
  project.provide("dnsZoneFile", dnsZoneFile);
  return async () => {
    server?.kill("SIGTERM");
    await new Promise((r) => setTimeout(r, 300));
    if (server && server.exitCode === null) server.kill("SIGKILL");
    await dns?.close();
    if (!process.env.KEEP_TEST_DATA) fs.rmSync(dataDir, { recursive: true, force: true });
  };
}
