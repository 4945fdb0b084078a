import type { ChildProcess } from "node:child_process";
import fs from "node:fs";
import net from "node:net";
import path from "node:path";
import { spawnGroup } from "./process-group";

export const freePort = () =>
  new Promise<number>((resolve, reject) => {
    const s = net.createServer();
    s.listen(0, "127.0.0.1", () => {
      const { port } = s.address() as net.AddressInfo;
      s.close(() => resolve(port));
    });
    s.on("error", reject);
  });

export type StartedServer = { baseUrl: string; proc: ChildProcess; stop: () => Promise<void>; kill9: () => Promise<void> };

const root = path.resolve(import.meta.dirname, "..");

/**
 * Start the built app (`scripts/serve.mjs`, what `npm start` runs) in its own process group
 * on `env.PORT`, logging to `logFile`, and wait for readiness. It is stopped (or killed) as
 * a group, so nothing it may have started outlives it.
 */
export async function startServer(env: Record<string, string>, logFile: string): Promise<StartedServer> {
  const baseUrl = `http://127.0.0.1:${env.PORT}`;
  const { proc, stop, kill9 } = spawnGroup(process.execPath, [path.join(root, "scripts", "serve.mjs"), "-p", env.PORT!, "-H", "127.0.0.1"], {
    cwd: root, env: { ...process.env, ...env }, logFile, graceMs: 3000,
  });
  const deadline = Date.now() + 60_000;
  for (;;) {
    if (proc.exitCode !== null) {
      throw new Error(`server exited early:\n${fs.readFileSync(logFile, "utf8").slice(-3000)}`);
    }
    try {
      if ((await fetch(`${baseUrl}/api/health`)).ok) break;
    } catch {
      /* not listening yet */
    }
    if (Date.now() > deadline) {
      await stop();
      throw new Error(`server did not become ready:\n${fs.readFileSync(logFile, "utf8").slice(-3000)}`);
    }
    await new Promise((r) => setTimeout(r, 200));
  }
  return { baseUrl, proc, stop, kill9 };
}
