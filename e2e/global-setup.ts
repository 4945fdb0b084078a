import { createHash } from "node:crypto";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { preparePgliteTemplate } from "../tests/db-template";
import { startDnsServer } from "../tests/dns-server";
import { startLeiRegister } from "../tests/lei-register";
import { startServerOnFreePort } from "../tests/server";
import { startSmtpCapture } from "../tests/smtp-capture";
import { startVaultInfo } from "../tests/vault-info";
import { startExchange, writeExchange } from "../tests/exchange";

/**
 * The same machinery as the vitest suite: the built app on a free loopback port with a
 * fresh data folder (or DATABASE_URL), its mail going to a real SMTP capture, its TXT
 * look-ups to a real DNS server on loopback (tests/dns-server.ts) and its LEI look-ups to the
 * register stand-in (tests/lei-register.ts, `LEI.active` and the rest). Tests find them through
 * PRS_E2E_* variables (Playwright workers inherit this process's env).
 */
export default async function globalSetup() {
  if (!process.env.DATABASE_URL) await preparePgliteTemplate(); // the server's database is a copy of it (tests/db-template.ts)
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), "prs-e2e-"));
  const mailDir = path.join(dataDir, "smtp-inbox");
  const dnsZoneFile = path.join(dataDir, "dns-zone.json");
  const dns = await startDnsServer(dnsZoneFile);
  const smtp = await startSmtpCapture(mailDir).catch(async (e) => {
    await dns.close();
    throw e;
  });
  const lei = await startLeiRegister(path.join(dataDir, "lei-records.json")).catch(async (e) => {
    await smtp.close();
    await dns.close();
    throw e;
  });
  // The exchange's info API stand-in (tests/vault-info.ts): its data file is PRS_E2E_VAULT_INFO.
  const vaultInfoFile = path.join(dataDir, "vault-info.json");
  const vaultInfo = await startVaultInfo(vaultInfoFile);
  // The exchange's testnet stand-in (tests/exchange.ts): its data file is PRS_E2E_EXCHANGE_TESTNET.
  const exchangeFile = path.join(dataDir, "exchange-testnet.json");
  writeExchange(exchangeFile, { keys: {} });
  const exchange = await startExchange(exchangeFile);
  const env: Record<string, string> = {
    DATA_DIR: dataDir,
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
    SMTP_URL: `smtp://127.0.0.1:${smtp.port}`,
    DNS_SERVERS: `127.0.0.1:${dns.port}`,
    DNS_TIMEOUT_MS: "250",
    // Webhook destinations on loopback (the e2e receiver), delivered promptly.
    WEBHOOK_ALLOW_INSECURE: "1",
    // New password hashes at scrypt's weakest accepted cost (2^14): the suite signs up and in
    // hundreds of times. tests/api/sessions.test.ts proves the production cost on a server of its own.
    PASSWORD_HASH_FAST: "1",
    WORKER_POLL_MS: "1000", // the floor: the server's own events and retries wake its worker at once (lib/outbox/wake.ts)
    LOG_CHECKPOINT_INTERVAL_MS: "300",
    BADGE_SIGHTINGS_FLUSH_MS: "300",
    // Every server that shares a database (the vitest and e2e runs of one PostgreSQL database
    // included) signs the log's checkpoints with one key: a fixed one, for tests only.
    LOG_NOTE_KEY: createHash("sha256").update("prs tests: transparency log note key").digest("base64"),
    LEI_API_URL: lei.url,
    LEI_TIMEOUT_MS: "2000",
    VAULT_INFO_URL: vaultInfo.url,
    VAULT_INFO_TIMEOUT_MS: "2000",
    EXCHANGE_TESTNET_URL: exchange.url,
    // Live exchange records (exchange_verified_trade) ask the same stand-in: never the real exchange from a test.
    EXCHANGE_URL: exchange.url,
    EXCHANGE_TIMEOUT_MS: "2000",
  };
  if (process.env.DATABASE_URL) env.DATABASE_URL = process.env.DATABASE_URL;
  let server;
  try {
    // On a free port; another if something takes it before the server binds it.
    server = await startServerOnFreePort((port) => ({ ...env, PORT: String(port), PUBLIC_BASE_URL: `http://127.0.0.1:${port}` }), path.join(dataDir, "server.log"));
  } catch (e) {
    await exchange.close();
    await vaultInfo.close();
    await lei.close();
    await smtp.close();
    await dns.close();
    throw e;
  }
  process.env.PRS_E2E_BASE_URL = server.baseUrl;
  process.env.PRS_E2E_MAIL_DIR = mailDir;
  process.env.PRS_E2E_DATA_DIR = dataDir;
  process.env.PRS_E2E_DNS_ZONE = dnsZoneFile;
  process.env.PRS_E2E_VAULT_INFO = vaultInfoFile;
  process.env.PRS_E2E_EXCHANGE_TESTNET = exchangeFile;
  return async () => {
    await server.stop();
    await exchange.close();
    await vaultInfo.close();
    await lei.close();
    await smtp.close();
    await dns.close();
    if (!process.env.KEEP_TEST_DATA) fs.rmSync(dataDir, { recursive: true, force: true });
  };
}
