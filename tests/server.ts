import type { ChildProcess } from "node:child_process";
import fs from "node:fs";
import net from "node:net";
import path from "node:path";
import { seedPglite } from "./db-template";
import { spawnGroup } from "./process-group";

/**
 * A port nothing listened on a moment ago. Another process may take it before it is used
 * (other test runs share the machine): start servers with `onFreePort`, which tries again.
 */
export const freePort = () =>
  new Promise<number>((resolve, reject) => {
    const s = net.createServer();
    s.listen(0, "127.0.0.1", () => {
      const { port } = s.address() as net.AddressInfo;
      s.close(() => resolve(port));
    });
    s.on("error", reject);
  });

/** The port was taken between `freePort` and the bind. */
export class PortTaken extends Error {}

/** Run `start` on a free port; if the port was taken meanwhile (PortTaken), on another one. */
export async function onFreePort<T>(start: (port: number) => Promise<T>, attempts = 5): Promise<T> {
  for (let i = 1; ; i++) {
    try {
      return await start(await freePort());
    } catch (e) {
      if (!(e instanceof PortTaken) || i >= attempts) throw e;
    }
  }
}

/** What a process wrote to `logFile` from byte `offset` on (its own part of a shared log). */
export function logSince(logFile: string, offset: number): string {
  if (!fs.existsSync(logFile)) return "";
  const fd = fs.openSync(logFile, "r");
  try {
    const size = fs.fstatSync(fd).size;
    const buf = Buffer.alloc(Math.max(0, size - offset));
    fs.readSync(fd, buf, 0, buf.length, offset);
    return buf.toString("utf8");
  } finally {
    fs.closeSync(fd);
  }
}

export const logSize = (logFile: string) => (fs.existsSync(logFile) ? fs.statSync(logFile).size : 0);

export type StartedServer = { baseUrl: string; env: Record<string, string>; proc: ChildProcess; stop: () => Promise<void>; kill9: () => Promise<void> };

const root = path.resolve(import.meta.dirname, "..");

/** Servers this process started that are still running (see stopStartedServers). */
const running = new Set<StartedServer>();

export type StartOptions = {
  /**
   * On the embedded database, whether the data folder starts as a copy of the migrated template
   * (tests/db-template.ts; the default) or empty, so the server migrates it from nothing as on a
   * fresh machine's `npm start`.
   */
  template?: boolean;
};

/**
 * Start the built app (`scripts/serve.mjs`, what `npm start` runs) in its own process group
 * on `env.PORT`, logging to `logFile`, and wait for readiness. It is stopped (or killed) as
 * a group, so nothing it may have started outlives it. Ready means this process said it
 * listens on that port (not merely that something answers there: another run's server
 * might) and /api/health answers; a port already in use is PortTaken.
 */
export async function startServer(env: Record<string, string>, logFile: string, opts: StartOptions = {}): Promise<StartedServer> {
  const baseUrl = `http://127.0.0.1:${env.PORT}`;
  if (!env.DATABASE_URL && env.DATA_DIR && opts.template !== false) seedPglite(env.DATA_DIR);
  const from = logSize(logFile);
  const own = () => logSince(logFile, from);
  const { proc, stop, kill9 } = spawnGroup(process.execPath, [path.join(root, "scripts", "serve.mjs"), "-p", env.PORT!, "-H", "127.0.0.1"], {
    cwd: root, env: { ...process.env, ...env }, logFile, graceMs: 3000,
  });
  const deadline = Date.now() + 60_000;
  for (;;) {
    // Next keeps the process alive after a failed listen (its uncaughtException handler).
    if (/EADDRINUSE/.test(own())) {
      await stop();
      throw new PortTaken(`port ${env.PORT} was taken:\n${own().slice(-1000)}`);
    }
    if (proc.exitCode !== null || proc.signalCode !== null) {
      await stop(); // whatever it started goes with it
      throw new Error(`server exited early:\n${own().slice(-3000)}`);
    }
    if (own().includes(`listening on ${baseUrl}`)) {
      try {
        if ((await fetch(`${baseUrl}/api/health`)).ok) break;
      } catch {
        /* not answering yet */
      }
    }
    if (Date.now() > deadline) {
      await stop();
      throw new Error(`server did not become ready:\n${own().slice(-3000)}`);
    }
    await new Promise((r) => setTimeout(r, 200));
  }
  const server: StartedServer = { baseUrl, env, proc, stop, kill9 };
  running.add(server);
  proc.once("exit", () => running.delete(server));
  return server;
}

/** `startServer` on a free port: `envFor(port)` is the environment for it (PORT, PUBLIC_BASE_URL, …). */
export const startServerOnFreePort = (envFor: (port: number) => Record<string, string>, logFile: string, opts: StartOptions = {}) =>
  onFreePort((port) => startServer(envFor(port), logFile, opts));

/** Stop every server this process started and has not stopped: for afterAll, so a failed test leaves none behind. */
export async function stopStartedServers(): Promise<void> {
  await Promise.all([...running].map((s) => s.stop()));
}
