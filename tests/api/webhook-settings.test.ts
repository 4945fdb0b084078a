import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { describe, expect, inject, it } from "vitest";
import { freePort, startServer } from "../server";

/** WEBHOOK_ALLOW_INSECURE is for tests and local development: said loudly, refused in production. */
describe("WEBHOOK_ALLOW_INSECURE at start", () => {
  it("is announced with a warning in the server's log", () => {
    expect(inject("serverEnv").WEBHOOK_ALLOW_INSECURE).toBe("1");
    const log = fs.readFileSync(path.join(inject("dataDir"), "server.log"), "utf8");
    expect(log).toMatch(/WARNING: WEBHOOK_ALLOW_INSECURE=1/);
  });

  it("stops the start when the public base URL is https", async () => {
    const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), "prs-insecure-"));
    const log = path.join(dataDir, "server.log");
    try {
      const port = await freePort();
      const env = { ...inject("serverEnv"), PORT: String(port), DATA_DIR: dataDir, PUBLIC_BASE_URL: "https://proof.example", WEBHOOK_ALLOW_INSECURE: "1", PASSWORD_HASH_FAST: "0" };
      let started: Awaited<ReturnType<typeof startServer>> | undefined;
      const outcome = await startServer(env, log).then(
        (s) => ((started = s), "started"),
        (e: Error) => e.message,
      );
      await started?.stop();
      expect(outcome).toMatch(/server exited early/);
      expect(fs.readFileSync(log, "utf8")).toMatch(/Invalid environment: WEBHOOK_ALLOW_INSECURE: .*https/);
    } finally {
      fs.rmSync(dataDir, { recursive: true, force: true });
    }
  }, 90_000); // past startServer's own 60 s deadline, so a server that does start is stopped above
});
