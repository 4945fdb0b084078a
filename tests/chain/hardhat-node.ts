import path from "node:path";
import { spawnGroup } from "../process-group";
import { logSince, logSize, PortTaken } from "../server";

/** Hardhat's default account #0 (public test key, funded with 10 000 ETH on every hardhat node). */
export const HARDHAT_KEY_0 = "0xac0974bec39a17e36ba4a6b4d238ff944bacb478cbed5efcae784d7bf4f2ff80" as const;

export type HardhatNode = { url: string; chainId: number; stop: () => Promise<void> };

const root = path.resolve(import.meta.dirname, "..", "..");

/**
 * Start a real EVM (`hardhat node`, Hardhat 2 / EDR) on 127.0.0.1:`port` with `chainId`, in
 * its own process group, logging to `logFile`; resolve once it answers eth_chainId.
 */
export async function startHardhatNode(opts: { port: number; chainId: number; logFile: string; timeoutMs?: number }): Promise<HardhatNode> {
  const url = `http://127.0.0.1:${opts.port}`;
  const from = logSize(opts.logFile);
  const own = () => logSince(opts.logFile, from);
  const { proc, stop } = spawnGroup(
    path.join(root, "node_modules", ".bin", "hardhat"),
    ["--config", path.join(import.meta.dirname, "hardhat.config.cjs"), "node", "--hostname", "127.0.0.1", "--port", String(opts.port)],
    {
      cwd: root,
      env: { ...process.env, PRS_TEST_CHAIN_ID: String(opts.chainId), HARDHAT_DISABLE_TELEMETRY_PROMPT: "true", HARDHAT_SHOW_STACK_TRACES: "true" },
      logFile: opts.logFile,
      graceMs: 2000,
    },
  );
  const logTail = () => own().slice(-2000);
  const deadline = Date.now() + (opts.timeoutMs ?? 30_000);
  for (;;) {
    if (/EADDRINUSE|address already in use/i.test(own())) {
      await stop();
      throw new PortTaken(`port ${opts.port} was taken`);
    }
    if (proc.exitCode !== null || proc.signalCode !== null) {
      await stop();
      throw new Error(`hardhat node exited early (${proc.exitCode}):\n${logTail()}`);
    }
    // Only this process's own "listening" line counts: another run's node may answer on the port.
    if (!own().includes(`JSON-RPC server at ${url}/`)) {
      if (Date.now() > deadline) {
        await stop();
        throw new Error(`hardhat node did not start on ${url} within ${opts.timeoutMs ?? 30_000} ms:\n${logTail()}`);
      }
      await new Promise((r) => setTimeout(r, 100));
      continue;
    }
    try {
      const res = await fetch(url, {
        method: "POST", headers: { "Content-Type": "application/json" },
        body: JSON.stringify({ jsonrpc: "2.0", id: 1, method: "eth_chainId", params: [] }),
        signal: AbortSignal.timeout(1000),
      });
      const { result } = (await res.json()) as { result?: string };
      if (result !== undefined) {
        if (Number(result) !== opts.chainId) {
          await stop();
          throw new Error(`hardhat node on ${url} reports chain id ${Number(result)}, expected ${opts.chainId}`);
        }
        return { url, chainId: opts.chainId, stop };
      }
    } catch (e) {
      if ((e as Error).message.startsWith("hardhat node on")) throw e;
      /* not listening yet */
    }
    if (Date.now() > deadline) {
      await stop();
      throw new Error(`hardhat node did not answer on ${url} within ${opts.timeoutMs ?? 30_000} ms:\n${logTail()}`);
    }
    await new Promise((r) => setTimeout(r, 100));
  }
}
