import path from "node:path";
import { z } from "zod";

/**
 * The only reader of process.env. Parsed once, lazily, so `next build` never needs
 * run-time settings. Every variable is documented in README.md.
 */
const intFrom = (fallback: number, min: number, max: number) =>
  z.coerce.number().int().min(min).max(max).default(fallback);

const envSchema = z.object({
  DATABASE_URL: z.string().url().optional(),
  DATA_DIR: z.string().min(1).default(".data"),
  PORT: intFrom(3000, 1, 65535),
  PUBLIC_BASE_URL: z.string().url().optional(),
  SIGNING_KEYS: z.string().optional(),
  EXPIRY_SWEEP_INTERVAL_MS: intFrom(60_000, 100, 86_400_000),
  DEFAULT_RECORD_VALIDITY_DAYS: intFrom(365, 1, 3650),
  MIN_VALIDITY_SECONDS: intFrom(60, 1, 86_400),
  STATUS_CACHE_SECONDS: intFrom(60, 0, 60),
  PLAN_LIMITS: z.string().optional(),
  DB_POOL_SIZE: intFrom(10, 1, 100),
  /** Resolvers for TXT checks, comma-separated host[:port]; unset = the system's. */
  DNS_SERVERS: z.string().optional(),
  DNS_TIMEOUT_MS: intFrom(3000, 50, 30_000),
  DOMAIN_RECHECK_INTERVAL_MS: intFrom(86_400_000, 100, 30 * 86_400_000),
  /** JSON object network → JSON-RPC URL, e.g. {"ethereum":"https://…"}; enables EIP-1271/6492 checks. */
  EVM_RPC_URLS: z.string().optional(),
  RPC_TIMEOUT_MS: intFrom(5000, 50, 60_000),
  /** Allow http:// and private/loopback webhook destinations (tests, local development only). */
  WEBHOOK_ALLOW_INSECURE: z.enum(["0", "1"]).default("0"),
  /** Delays after the first try, comma-separated milliseconds (CONTRACT: 5 s, 5 min, 30 min, 2 h, 5 h, 10 h, 10 h). */
  WEBHOOK_RETRY_SCHEDULE_MS: z.string().regex(/^\d+(,\d+)*$/).default("5000,300000,1800000,7200000,18000000,36000000,36000000"),
  WEBHOOK_DISABLE_AFTER: intFrom(15, 1, 1000),
  WEBHOOK_TIMEOUT_MS: intFrom(10_000, 100, 60_000),
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
});

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
