import { randomBytes } from "node:crypto";
import fs from "node:fs";
import path from "node:path";
import { getEnv } from "@/lib/env";

/**
 * While the server runs it leaves `<DATA_DIR>/server.json` (mode 0600): its pid, port, the
 * loopback port of its internal listener (`adminPort`, scripts/serve.mjs) and a random token.
 * The admin CLI uses it to send commands through the running server, because the embedded
 * database can be opened by one process only.
 */
export type Runtime = { pid: number; port: number; adminPort: number; token: string };

/** Where the admin CLI sends commands: the internal listener (serve.mjs), else — `next dev` — the server's port. */
export const adminUrl = (rt: Pick<Runtime, "port"> & Partial<Pick<Runtime, "adminPort">>) =>
  `http://127.0.0.1:${rt.adminPort ?? rt.port}/api/internal/admin`;

export const runtimeFile = () => path.join(getEnv().dataDir, "server.json");

export function writeRuntimeFile(): Runtime {
  const port = getEnv().PORT;
  const rt: Runtime = { pid: process.pid, port, adminPort: Number(process.env.PRS_ADMIN_PORT) || port, token: randomBytes(32).toString("base64url") };
  const file = runtimeFile();
  fs.mkdirSync(path.dirname(file), { recursive: true, mode: 0o700 });
  fs.writeFileSync(file, JSON.stringify(rt), { mode: 0o600 });
  fs.chmodSync(file, 0o600);
  const cleanup = () => {
    try {
      const cur = JSON.parse(fs.readFileSync(file, "utf8")) as Runtime;
      if (cur.pid === process.pid) fs.unlinkSync(file);
    } catch {
      /* already gone */
    }
  };
  process.once("exit", cleanup);
  for (const sig of ["SIGINT", "SIGTERM"] as const) process.once(sig, () => { cleanup(); process.exit(0); });
  return rt;
}

export function readRuntimeFile(): Runtime | null {
  try {
    return JSON.parse(fs.readFileSync(runtimeFile(), "utf8")) as Runtime;
  } catch {
    return null;
  }
}

export const g = globalThis as unknown as { __prsRuntime?: Runtime };
