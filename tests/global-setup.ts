import { createHash } from "node:crypto";
import fs from "node:fs";
import net from "node:net";
import os from "node:os";
import path from "node:path";
import type { TestProject } from "vitest/node";
import { startHardhatNode, type HardhatNode } from "./chain/hardhat-node";
import { preparePgliteTemplate, preparePgTemplate } from "./db-template";
import { startDnsServer } from "./dns-server";
import { startExchange, writeExchange } from "./exchange";
import { assertNoSecretsKept } from "./secret-scan";
import { startLeiRegister } from "./lei-register";
import { freePort, onFreePort, startServerOnFreePort, type StartedServer } from "./server";
import { startSmtpCapture } from "./smtp-capture";

/**
 * Starts, for the API tests: a real DNS server, a real SMTP server, a real EVM chain
 * (a hardhat node standing in for Base, chain id 8453) and an LEI register stand-in on loopback, and the built app
 * (`next start`) on a free port (another if it is taken meanwhile) with a fresh data folder — embedded PGlite, or the
 * PostgreSQL in DATABASE_URL — pointed at them.
 */
declare module "vitest" {
  export interface ProvidedContext {
    baseUrl: string;
    dataDir: string;
    serverEnv: Record<string, string>;
    dnsZoneFile: string;
    mailDir: string;
    /** The hardhat node the server's EVM_RPC_URLS names for `network`. */
    evmChain: { network: string; url: string; chainId: number };
    /** The LEI register stand-in the server's LEI_API_URL names; edit it with setLeiRecord(recordsFile, …). */
    leiRegister: { url: string; recordsFile: string };
    /** The exchange stand-ins the server's EXCHANGE_TESTNET_URL and EXCHANGE_URL name; edit them with writeExchange(file, …). */
    exchange: { testnetFile: string; mainnetFile: string };
  }
}

export { freePort };

export default async function setup(project: TestProject) {
  // Fresh databases in this run are copies of a migrated template (tests/db-template.ts).
  const pgTemplate = process.env.DATABASE_URL ? await preparePgTemplate(process.env.DATABASE_URL) : undefined;
  if (!pgTemplate) await preparePgliteTemplate();
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), "prs-test-"));
  const dnsZoneFile = path.join(dataDir, "dns-zone.json");
  const mailDir = path.join(dataDir, "smtp-inbox");
  const dns = await startDnsServer(dnsZoneFile);
  const smtp = await startSmtpCapture(mailDir);
  const lei = await startLeiRegister(path.join(dataDir, "lei-records.json"));
  const exchangeFiles = { testnetFile: path.join(dataDir, "exchange-testnet.json"), mainnetFile: path.join(dataDir, "exchange-mainnet.json") };
  writeExchange(exchangeFiles.testnetFile, { keys: {} });
  writeExchange(exchangeFiles.mainnetFile, { keys: {} });
  const testnet = await startExchange(exchangeFiles.testnetFile);
  const mainnet = await startExchange(exchangeFiles.mainnetFile);
  const closeExchanges = async () => {
    await testnet.close();
    await mainnet.close();
  };
  const evmChain = { network: "base", chainId: 8453, url: "" };
  // An RPC address that never answers: a port this process holds, closing every connection.
  const deadRpc = net.createServer((socket) => socket.destroy());
  await new Promise<void>((r) => deadRpc.listen(0, "127.0.0.1", r));
  const closeDeadRpc = () => new Promise<void>((r) => deadRpc.close(() => r()));
  /** What a start that failed half way must stop (the chain and the server stop on their own lines). */
  const closeStandIns = async () => {
    await dns.close();
    await smtp.close();
    await lei.close();
    await closeExchanges();
    await closeDeadRpc();
  };
  let chain: HardhatNode;
  try {
    chain = await onFreePort((port) => startHardhatNode({ port, chainId: evmChain.chainId, logFile: path.join(dataDir, "hardhat.log") }));
  } catch (e) {
    await closeStandIns();
    throw e;
  }
  evmChain.url = chain.url;
  const common: Record<string, string> = {
    DATA_DIR: dataDir,
    EXPIRY_SWEEP_INTERVAL_MS: "300",
    MIN_VALIDITY_SECONDS: "1",
    PLAN_LIMITS: JSON.stringify({ starter: { live_records: 3 } }),
    NEXT_TELEMETRY_DISABLED: "1",
    // The tests play several clients from one loopback address through X-Forwarded-For.
    TRUST_PROXY: "1",
    // The suite plays many anonymous reads from few addresses: the anonymous allowances
    // (lib/http/anonymous-limits.ts) are out of its way here; tests/api/anonymous-limits.test.ts
    // proves each on a server of its own.
    RECORD_READ_RATE_LIMIT_PER_MINUTE: "10000000",
    DIRECTORY_RATE_LIMIT_PER_MINUTE: "10000000",
    LOG_RATE_LIMIT_PER_MINUTE: "10000000",
    PUBLIC_RATE_LIMIT_PER_MINUTE: "10000000",
    DNS_SERVERS: `127.0.0.1:${dns.port}`,
    DNS_TIMEOUT_MS: "250",
    // Re-checks are daily, as in production: a test about a re-check asks for one (the operator's
    // `record recheck` / `organisation recheck`, tests/helpers.ts untilRechecked). At 1.5 s every
    // monitored record the suite ever issued was re-checked over and over: by the end of a run
    // the server spent most of a core on it (docs/testing.md).
    // base is the hardhat node (smart accounts are checked on a real chain); bsc has an RPC
    // configured that never answers: smart-account checks there are "unreachable"; optimism
    // is misconfigured on purpose — the same node, which serves base's chain id, not optimism's.
    EVM_RPC_URLS: JSON.stringify({ [evmChain.network]: chain.url, bsc: `http://127.0.0.1:${(deadRpc.address() as net.AddressInfo).port}`, optimism: chain.url }),
    // Generous for the hardhat node on a busy machine; the dead bsc address fails at once.
    RPC_TIMEOUT_MS: "3000",
    // evm_transaction records on the hardhat node: two confirmations (tests mine the second block).
    EVM_CONFIRMATIONS: JSON.stringify({ [evmChain.network]: 2 }),
    // Webhooks: loopback receivers, a shortened retry schedule and threshold, fast polling.
    WEBHOOK_ALLOW_INSECURE: "1",
    // New password hashes at scrypt's weakest accepted cost (2^14): the suite signs up and in
    // hundreds of times. tests/api/sessions.test.ts proves the production cost on a server of its own.
    PASSWORD_HASH_FAST: "1",
    WEBHOOK_RETRY_SCHEDULE_MS: "150,150,150,150,150,150,150",
    WEBHOOK_DISABLE_AFTER: "4",
    WEBHOOK_TIMEOUT_MS: "700",
    WORKER_POLL_MS: "1000", // the floor: events and retries of the server itself wake its worker at once (lib/outbox/wake.ts)
    LOG_CHECKPOINT_INTERVAL_MS: "300",
    BADGE_SIGHTINGS_FLUSH_MS: "300",
    // Every server that shares a database (the vitest and e2e runs of one PostgreSQL database
    // included) signs the log's checkpoints with one key: a fixed one, for tests only.
    LOG_NOTE_KEY: createHash("sha256").update("prs tests: transparency log note key").digest("base64"),
    SMTP_URL: `smtp://127.0.0.1:${smtp.port}`,
    // The register stand-in; its slow LEI answers after 5 s, well beyond this.
    LEI_API_URL: lei.url,
    LEI_TIMEOUT_MS: "700",
    EXCHANGE_TESTNET_URL: testnet.url,
    EXCHANGE_URL: mainnet.url,
    EXCHANGE_TIMEOUT_MS: "700",
    METRICS_TOKEN: "test-metrics-token-0123456789",
  };
  if (process.env.DATABASE_URL) common.DATABASE_URL = process.env.DATABASE_URL;
  let server: StartedServer;
  try {
    server = await startServerOnFreePort(
      (port) => ({ ...common, PORT: String(port), PUBLIC_BASE_URL: `http://127.0.0.1:${port}` }),
      path.join(dataDir, "server.log"),
    );
  } catch (e) {
    await chain.stop();
    await closeStandIns();
    throw e;
  }
  project.provide("baseUrl", server.baseUrl);
  project.provide("dataDir", dataDir);
  project.provide("serverEnv", server.env);
  project.provide("dnsZoneFile", dnsZoneFile);
  project.provide("mailDir", mailDir);
  project.provide("evmChain", evmChain);
  project.provide("leiRegister", { url: lei.url, recordsFile: lei.recordsFile });
  project.provide("exchange", exchangeFiles);
  return async () => {
    await server.stop();
    await closeExchanges();
    // Exchange API keys and secrets are used for a check and dropped: after the whole run,
    // neither the database nor the server's log may hold any of them (tests/secret-scan.ts).
    await assertNoSecretsKept({ dataDir, logFile: path.join(dataDir, "server.log"), databaseUrl: process.env.DATABASE_URL });
    await chain.stop();
    await dns.close();
    await smtp.close();
    await lei.close();
    await closeDeadRpc();
    await pgTemplate?.drop();
    if (!process.env.KEEP_TEST_DATA) fs.rmSync(dataDir, { recursive: true, force: true });
  };
}
