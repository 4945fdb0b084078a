import path from "node:path";
import { z } from "zod";
import type { LogLevel } from "@/lib/log/json-log.mjs";
import type { EvmNetwork } from "@/lib/proofs/wallet-address";
import { parseCosignerVkey } from "@/lib/tlog/cosignature";

/**
 * The only reader of process.env. Parsed once, lazily, so `next build` never needs
 * run-time settings. Every variable is documented in README.md.
 */
const intFrom = (fallback: number, min: number, max: number) =>
  z.coerce.number().int().min(min).max(max).default(fallback);

/** The EVM networks a setting may name (a type-only import: env.ts loads no address code). */
const evmNetwork = z.enum(["ethereum", "base", "polygon", "arbitrum", "optimism", "bsc"] as const satisfies readonly EvmNetwork[]);

/** A JSON object in a setting, checked by `shape`; a bad one stops the start with the setting named. */
const jsonSetting = <T extends z.ZodType>(shape: T, example: string) =>
  z.string().transform((s, ctx) => {
    try {
      return JSON.parse(s) as unknown;
    } catch {
      ctx.addIssue({ code: "custom", message: `must be JSON like ${example}` });
      return z.NEVER;
    }
  }).pipe(shape);

const envSchema = z.object({
  DATABASE_URL: z.string().url().optional(),
  DATA_DIR: z.string().min(1).default(".data"),
  PORT: intFrom(3000, 1, 65535),
  PUBLIC_BASE_URL: z.string().url().optional(),
  SIGNING_KEYS: z.string().optional(),
  /** The transparency log's note key: base64 of a 32-byte Ed25519 seed, the same on every instance (else DATA_DIR/log-note-key). */
  LOG_NOTE_KEY: z.string().regex(/^[A-Za-z0-9+/]{43}=$/, "must be base64 of 32 bytes").optional(),
  /** How often a new checkpoint of the transparency log may be signed (when entries were added). */
  LOG_CHECKPOINT_INTERVAL_MS: intFrom(2000, 100, 60_000),
  /**
   * Witnesses that cosign the log's checkpoints (C2SP tlog-witness): `[{name, vkey, url}]`, vkey of
   * type 0x04 named `name`, url the submission prefix (…/add-checkpoint is posted to). Unset: none.
   */
  LOG_WITNESSES: jsonSetting(z.array(z.strictObject({
    name: z.string().min(1),
    vkey: z.string().superRefine((v, ctx) => {
      try {
        parseCosignerVkey(v);
      } catch (e) {
        ctx.addIssue({ code: "custom", message: `${(e as Error).message}` });
      }
    }),
    url: z.string().url().refine((u) => /^https?:\/\//i.test(u), "must be an http(s) URL").transform((u) => u.replace(/\/+$/, "")),
  })).max(32), `[{"name":"witness.example/w1","vkey":"witness.example/w1+<id>+<base64 key>","url":"https://witness.example/w1"}]`).optional(),
  /** How many of LOG_WITNESSES must cosign a checkpoint before it is published (default: all). */
  LOG_WITNESS_QUORUM: z.coerce.number().int().min(1).optional(),
  /** How long the log waits for one witness's answer. */
  LOG_WITNESS_TIMEOUT_MS: intFrom(5000, 100, 60_000),
  EXPIRY_SWEEP_INTERVAL_MS: intFrom(60_000, 100, 86_400_000),
  /** How often the sweep also purges what is past its retention (documents, idempotency keys, sessions, rate-limit rows, status-list changes): at most once a round. */
  PURGE_INTERVAL_MS: intFrom(60_000, 100, 86_400_000),
  /** How often each instance adds the badge sightings it counted in memory to the database (docs/embed.md). */
  BADGE_SIGHTINGS_FLUSH_MS: intFrom(10_000, 100, 600_000),
  DEFAULT_RECORD_VALIDITY_DAYS: intFrom(365, 1, 3650),
  MIN_VALIDITY_SECONDS: intFrom(60, 1, 86_400),
  STATUS_CACHE_SECONDS: intFrom(60, 0, 60),
  PLAN_LIMITS: z.string().optional(),
  DB_POOL_SIZE: intFrom(10, 1, 100),
  /**
   * PostgreSQL: send queries as named prepared statements (one round trip, parsed once per
   * connection). 0 for a pooler in transaction mode that cannot keep them (PgBouncer < 1.21).
   */
  DB_PREPARE: z.enum(["0", "1"]).default("1"),
  /** Resolvers for TXT checks, comma-separated host[:port]; unset = the system's. */
  DNS_SERVERS: z.string().optional(),
  DNS_TIMEOUT_MS: intFrom(3000, 50, 30_000),
  /** How often issued records whose claim type re-checks (domain TXT, LEI) are checked again (CONTRACT). */
  RECHECK_INTERVAL_MS: intFrom(86_400_000, 100, 30 * 86_400_000),
  /** Due live records re-checked per sweep round (first), and due sandbox records after them, on a budget of their own. */
  RECHECK_BATCH: intFrom(50, 1, 10_000),
  /** Status changes (suspend, reinstate, …) an owner may make to one record per hour; then 429. */
  LIFECYCLE_CHANGES_PER_HOUR: intFrom(20, 1, 100_000),
  RECHECK_SANDBOX_BATCH: intFrom(10, 0, 10_000),
  /** JSON object network → JSON-RPC URL, e.g. {"ethereum":"https://…"}; enables EIP-1271/6492 checks. */
  EVM_RPC_URLS: z.string().optional(),
  RPC_TIMEOUT_MS: intFrom(5000, 50, 60_000),
  /** The LEI register (GLEIF API): `GET {LEI_API_URL}/lei-records/{LEI}`. */
  LEI_API_URL: z.url({ protocol: /^https?$/ }).default("https://api.gleif.org/api/v1"),
  /** One register call; no answer in time, 429 or 5xx → unreachable (pending review). */
  LEI_TIMEOUT_MS: intFrom(5000, 50, 60_000),
  /** The perpetual exchange's public info API (exchange-control snapshots): `POST {VAULT_INFO_URL}` with `{type, …}`. */
  VAULT_INFO_URL: z.url({ protocol: /^https?$/ }).default("https://api.hyperliquid.xyz/info"),
  /** One info API call; no answer in time, 429 or 5xx → unreachable. */
  VAULT_INFO_TIMEOUT_MS: intFrom(5000, 50, 60_000),
  /** The exchange's private API for live trade records (exchange_verified_trade), and its testnet (the test pilot). */
  EXCHANGE_URL: z.url({ protocol: /^https?$/ }).default("https://api.bybit.com"),
  EXCHANGE_TESTNET_URL: z.url({ protocol: /^https?$/ }).default("https://api-testnet.bybit.com"),
  /** Bearer token for GET /api/metrics (Prometheus); unset: the endpoint answers 404. */
  METRICS_TOKEN: z.string().min(16).optional(),
  /** One exchange call; no answer in time, 429 or 5xx → unreachable (202, credentials not kept). */
  EXCHANGE_TIMEOUT_MS: intFrom(5000, 50, 60_000),
  /**
   * JSON object network → confirmations a transaction receipt needs, overriding the
   * built-in defaults of lib/connectors/evm-confirmations.ts for the networks it names.
   */
  EVM_CONFIRMATIONS: jsonSetting(z.partialRecord(evmNetwork, z.number().int().min(1).max(100_000)), '{"ethereum":12}').optional(),
  /**
   * Allow http:// and loopback webhook destinations (tests, local development only; never
   * link-local, private or unique-local ones). Refused with an https PUBLIC_BASE_URL.
   */
  WEBHOOK_ALLOW_INSECURE: z.enum(["0", "1"]).default("0"),
  /**
   * Resolvers for webhook destinations (at registration and at connect time), comma-separated
   * host[:port], asked for A and AAAA only; unset = the system's (getaddrinfo: /etc/hosts, then
   * its DNS). Tests point it at their loopback DNS server to play a rebinding name.
   */
  WEBHOOK_DNS_SERVERS: z.string().optional(),
  /**
   * New password hashes at scrypt's weakest accepted cost, 2^14, not 2^17 (test suites only: a
   * suite signs up and in hundreds of times). Refused with an https PUBLIC_BASE_URL.
   */
  PASSWORD_HASH_FAST: z.enum(["0", "1"]).default("0"),
  /** Delays after the first try, comma-separated milliseconds (CONTRACT: 5 s, 5 min, 30 min, 2 h, 5 h, 10 h, 10 h). */
  WEBHOOK_RETRY_SCHEDULE_MS: z.string().regex(/^\d+(,\d+)*$/).default("5000,300000,1800000,7200000,18000000,36000000,36000000"),
  WEBHOOK_DISABLE_AFTER: intFrom(15, 1, 1000),
  WEBHOOK_TIMEOUT_MS: intFrom(10_000, 100, 60_000),
  /** Sends one worker keeps in flight at once (each to a different endpoint). */
  WEBHOOK_CONCURRENCY: intFrom(32, 1, 1000),
  /** What a disabled endpoint is kept for its re-enabling: the newest this-many events ... */
  WEBHOOK_BACKLOG_MAX: intFrom(1000, 1, 100_000),
  /** ... raised within this many days. Older or further back: recorded failed, never sent. */
  WEBHOOK_BACKLOG_DAYS: intFrom(7, 1, 90),
  /** Run the delivery worker inside the server (default) or only as `npm run worker`. */
  WEBHOOK_WORKER: z.enum(["on", "off"]).default("on"),
  WORKER_POLL_MS: intFrom(1000, 20, 60_000),
  /** Outgoing mail, e.g. smtp://user:pass@host:587; unset = written to DATA_DIR/mail/ and the log. */
  SMTP_URL: z.string().optional(),
  MAIL_FROM: z.string().default("Proof Records <no-reply@proof-records.invalid>"),
  /** Signs portal sessions (JWT) and email-confirmation links; unset = generated into DATA_DIR/auth-secret. */
  NEXTAUTH_SECRET: z.string().min(32, "must be at least 32 characters").optional(),
  /** The review target: a pending submission older than this shows as overdue in /review. */
  REVIEW_SLA_HOURS: intFrom(24, 1, 24 * 30),
  /** Sign-in and sign-up attempts per client address per minute. */
  AUTH_RATE_LIMIT_PER_MINUTE: intFrom(10, 1, 10_000),
  /** Public lookups per client address per minute (CONTRACT: 30); shared by every instance on PostgreSQL. */
  LOOKUP_RATE_LIMIT_PER_MINUTE: intFrom(30, 1, 1_000_000),
  /**
   * Anonymous requests per client address (IPv6: per /64) per minute, per class
   * (lib/http/anonymous-limits.ts; shared by every instance on PostgreSQL): one record's public
   * answers, badge, QR and the status lists ...
   */
  RECORD_READ_RATE_LIMIT_PER_MINUTE: intFrom(1200, 1, 10_000_000),
  /** ... the directory and its search ... */
  DIRECTORY_RATE_LIMIT_PER_MINUTE: intFrom(60, 1, 10_000_000),
  /** ... the transparency log's checkpoint, key and tiles ... */
  LOG_RATE_LIMIT_PER_MINUTE: intFrom(1200, 1, 10_000_000),
  /** ... and every other page or document served without a key or session (OpenAPI, keys, guides). */
  PUBLIC_RATE_LIMIT_PER_MINUTE: intFrom(600, 1, 10_000_000),
  /** The least severe log lines written (JSON on stdout; docs/operations.md#logs). */
  LOG_LEVEL: z.enum(["fatal", "error", "warn", "info", "debug", "trace", "silent"] as const satisfies readonly LogLevel[]).default("info"),
  /** Set by Next itself: `next dev` runs "development", where the CSP allows what its overlay needs. */
  NODE_ENV: z.enum(["development", "production", "test"]).default("production"),
}).superRefine((e, ctx) => {
  const witnesses = e.LOG_WITNESSES ?? [];
  witnesses.forEach((w, i) => {
    const keyName = w.vkey.trim().split("+")[0];
    if (keyName !== w.name) ctx.addIssue({ code: "custom", path: ["LOG_WITNESSES", i, "vkey"], message: `names ${JSON.stringify(keyName)}, not the witness's name ${JSON.stringify(w.name)}` });
    if (witnesses.findIndex((o) => o.name === w.name) !== i) ctx.addIssue({ code: "custom", path: ["LOG_WITNESSES", i, "name"], message: `${JSON.stringify(w.name)} is listed twice` });
  });
  if (e.LOG_WITNESS_QUORUM !== undefined && e.LOG_WITNESS_QUORUM > witnesses.length) {
    ctx.addIssue({
      code: "custom", path: ["LOG_WITNESS_QUORUM"],
      message: `is ${e.LOG_WITNESS_QUORUM}, but LOG_WITNESSES lists ${witnesses.length} witness${witnesses.length === 1 ? "" : "es"}`,
    });
  }
  if (e.PASSWORD_HASH_FAST === "1" && /^https:/i.test(e.PUBLIC_BASE_URL ?? "")) {
    ctx.addIssue({
      code: "custom", path: ["PASSWORD_HASH_FAST"],
      message: "must not be 1 when PUBLIC_BASE_URL is https (it makes new password hashes eight times cheaper to guess, for test suites only)",
    });
  }
  if (e.WEBHOOK_ALLOW_INSECURE === "1" && /^https:/i.test(e.PUBLIC_BASE_URL ?? "")) {
    ctx.addIssue({
      code: "custom", path: ["WEBHOOK_ALLOW_INSECURE"],
      message: "must not be 1 when PUBLIC_BASE_URL is https (it allows http:// and loopback webhook destinations, for tests and local development only)",
    });
  }
});

/** Logged at the start of a server or worker that runs with WEBHOOK_ALLOW_INSECURE=1. */
export const INSECURE_WEBHOOKS_WARNING =
  "WARNING: WEBHOOK_ALLOW_INSECURE=1: webhooks may be sent over http:// and to loopback addresses. For tests and local development only.";

/** Logged at the start of a server that runs with PASSWORD_HASH_FAST=1. */
export const FAST_PASSWORD_HASH_WARNING =
  "WARNING: PASSWORD_HASH_FAST is on: new password hashes use scrypt N=2^14, not 2^17. For test suites only.";

export type Env = z.infer<typeof envSchema> & { publicBaseUrl: string; dataDir: string };

let cached: Env | undefined;

export function getEnv(): Env {
  if (cached) return cached;
  const raw = Object.fromEntries(
    Object.entries(process.env).filter(([, v]) => v !== undefined && v !== ""),
  );
  const parsed = envSchema.safeParse(raw);
  if (!parsed.success) {
    const detail = parsed.error.issues.map((i) => `${i.path.join(".")}: ${i.message}`).join("; ");
    throw new Error(`Invalid environment: ${detail}`);
  }
  const e = parsed.data;
  cached = {
    ...e,
    dataDir: path.resolve(e.DATA_DIR),
    publicBaseUrl: (e.PUBLIC_BASE_URL ?? `http://localhost:${e.PORT}`).replace(/\/+$/, ""),
  };
  return cached;
}
