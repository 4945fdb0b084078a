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
