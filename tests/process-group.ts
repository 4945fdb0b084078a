import { spawn, type ChildProcess } from "node:child_process";
import fs from "node:fs";

export type GroupProcess = {
  proc: ChildProcess;
  /** SIGTERM to the whole group, SIGKILL after `graceMs`. */
  stop: () => Promise<void>;
  /** SIGKILL to the whole group at once (a crash). */
  kill9: () => Promise<void>;
};

/**
 * Start `cmd` in a process group of its own with stdout and stderr appended to `logFile`,
 * so it and everything it starts can be stopped (or killed) together.
 */
export function spawnGroup(cmd: string, args: string[], o: { cwd: string; env: NodeJS.ProcessEnv; logFile: string; graceMs: number }): GroupProcess {
  const log = fs.createWriteStream(o.logFile, { flags: "a" });
  const proc = spawn(cmd, args, { cwd: o.cwd, env: o.env, stdio: ["ignore", "pipe", "pipe"], detached: true });
  proc.stdout!.pipe(log);
  proc.stderr!.pipe(log);
  const signalGroup = (sig: NodeJS.Signals) => {
    try {
      process.kill(-proc.pid!, sig);
    } catch {
      /* already gone */
    }
  };
  const exited = new Promise<void>((resolve) => proc.once("exit", () => resolve()));
  return {
    proc,
    stop: async () => {
      signalGroup("SIGTERM");
      await Promise.race([exited, new Promise((r) => setTimeout(r, o.graceMs))]);
      signalGroup("SIGKILL");
      log.end();
    },
    kill9: async () => {
      signalGroup("SIGKILL");
      await exited;
    },
  };
}
