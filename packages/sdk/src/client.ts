// The client: one method per operation of the OpenAPI document (methods.ts names them,
// generated/operations.ts says how each is called), with retries, idempotency keys and
// typed errors in one place, request().
import { randomUUID } from "node:crypto";
import { ApiError, errorFromResponse, PrsConnectionError, type PrsError } from "./errors.js";
import type { operations } from "./generated/openapi.js";
import { operationTable, type OperationId } from "./generated/operations.js";
import { methodEntries, methodTable } from "./methods.js";
import { backoffMs, DEFAULT_RETRY, parseRetryAfter, retryableStatus, type RetryPolicy } from "./retry.js";
import type { CheckpointPolicy } from "./checkpoint.js";
import { verifyCheck, verifyLookup, verifyStatus, type Jwks, type VerifyResult } from "./verify.js";

// ---- Types derived from the generated OpenAPI types ----

type Op<Id extends OperationId> = operations[Id];
type Row<Id extends OperationId> = (typeof operationTable)[Id];

/** The body an operation takes (never when it takes none): its JSON, or a FormData for a multipart upload (files.upload). */
export type RequestBody<Id extends OperationId> =
  Op<Id> extends { requestBody?: infer RB }
    ? ([NonNullable<RB>] extends [never] ? never
      : NonNullable<RB> extends { content: { "application/json": infer B } } ? B
      : NonNullable<RB> extends { content: { "multipart/form-data": unknown } } ? FormData
      : never)
    : never;

/** The query parameters an operation takes (never when it takes none). */
export type QueryParams<Id extends OperationId> = Op<Id> extends { parameters: { query?: infer Q } } ? NonNullable<Q> : never;

type SuccessStatus = 200 | 201 | 202 | 203 | 204 | 206;
/** What a successful answer holds: the union of the operation's 2xx bodies. */
export type ResponseData<Id extends OperationId> =
  Op<Id> extends { responses: infer R }
    ? { [S in keyof R & SuccessStatus]: R[S] extends { content: infer C } ? C[keyof C] : undefined }[keyof R & SuccessStatus]
    : never;

type PathArgs<T extends readonly string[]> = { -readonly [K in keyof T]: string };
type BodyArgs<Id extends OperationId> = [RequestBody<Id>] extends [never] ? [] : Op<Id> extends { requestBody: unknown } ? [body: RequestBody<Id>] : [body?: RequestBody<Id>];
type QueryArgs<Id extends OperationId> = [QueryParams<Id>] extends [never] ? [] : {} extends QueryParams<Id> ? [query?: QueryParams<Id>] : [query: QueryParams<Id>];

/** A method of the client: path parameters in path order, then the body, then the query, then options. */
export type OperationMethod<Id extends OperationId> = (
  ...args: [...PathArgs<Row<Id>["pathParams"]>, ...BodyArgs<Id>, ...QueryArgs<Id>, options?: RequestOptions]
) => Promise<ResponseData<Id>>;

type Methods<T> = { [K in keyof T]: T[K] extends OperationId ? OperationMethod<T[K]> : Methods<T[K]> };

// ---- Options ----

export type ClientOptions = {
  /** prs_sandbox_… or prs_live_…; public endpoints work without one. */
  apiKey?: string;
  /** The service's base URL, e.g. https://proof.example (no /api/v1). */
  baseUrl: string;
  /** Retry policy (attempts, total time, backoff); see RetryPolicy. */
  retry?: Partial<RetryPolicy>;
  /** Per-attempt timeout in milliseconds (default 30 s). */
  timeoutMs?: number;
  /** How long client.jwks() keeps the key set when the answer names no max-age (default 300 s). */
  jwksTtlMs?: number;
  /** A fetch implementation (default: the global fetch). */
  fetch?: typeof fetch;
};

export type RequestOptions = {
  /** For operations that take one (record creation, batches): reused on every retry of this call. Default: a new random UUID per call. */
  idempotencyKey?: string;
  /** Overrides the client's API key for this call (getMetrics takes the operator's metrics token here). */
  apiKey?: string;
  headers?: Record<string, string>;
  signal?: AbortSignal;
  timeoutMs?: number;
  retry?: Partial<RetryPolicy>;
};

export type RequestInput = { path?: Record<string, string>; query?: Record<string, unknown>; body?: unknown };

/** A successful answer with what came with it. */
export type PrsResponse<T> = {
  data: T;
  status: number;
  headers: Headers;
  request_id: string | undefined;
  /** The Idempotency-Key sent, if the operation takes one. */
  idempotency_key: string | undefined;
  /** How many attempts it took (1: no retry). */
  attempts: number;
};

const sleep = (ms: number, signal?: AbortSignal) =>
  new Promise<void>((resolve, reject) => {
    if (signal?.aborted) return reject(signal.reason);
    const t = setTimeout(() => {
      signal?.removeEventListener("abort", onAbort);
      resolve();
    }, ms);
    const onAbort = () => {
      clearTimeout(t);
      reject(signal!.reason);
    };
    signal?.addEventListener("abort", onAbort, { once: true });
  });

function maxAge(cacheControl: string | null): number | null {
  const m = /(?:^|,)\s*max-age=(\d+)/i.exec(cacheControl ?? "");
  return m ? Number(m[1]) * 1000 : null;
}

// The methods come from methodTable at construction; this declaration types them.
// (jwks is the class's own, cached, method.)
// eslint-disable-next-line @typescript-eslint/no-unsafe-declaration-merging
export interface PrsClient extends Methods<Omit<typeof methodTable, "jwks">> {}

// eslint-disable-next-line @typescript-eslint/no-unsafe-declaration-merging
export class PrsClient {
  readonly baseUrl: string;
  readonly #apiKey: string | undefined;
  readonly #retry: RetryPolicy;
  readonly #timeoutMs: number;
  readonly #jwksTtlMs: number;
  readonly #fetch: typeof fetch;
  #jwks: { expires: number; value: Promise<Jwks> } | undefined;

  constructor(options: ClientOptions) {
    this.baseUrl = options.baseUrl.replace(/\/+$/, "");
    this.#apiKey = options.apiKey;
    this.#retry = { ...DEFAULT_RETRY, ...options.retry };
    this.#timeoutMs = options.timeoutMs ?? 30_000;
    this.#jwksTtlMs = options.jwksTtlMs ?? 300_000;
    this.#fetch = options.fetch ?? ((...a) => fetch(...a));
    for (const [names, id] of methodEntries()) {
      if (id === "getJwks") continue;
      let target = this as unknown as Record<string, unknown>;
      for (const n of names.slice(0, -1)) target = (target[n] ??= {}) as Record<string, unknown>;
      target[names.at(-1)!] = (...args: unknown[]) => this.#invoke(id, args);
    }
  }

  /** Positional arguments (path parameters, body, query, options) to request(). */
  async #invoke(id: OperationId, args: unknown[]): Promise<unknown> {
    const row = operationTable[id];
    let i = 0;
    const path: Record<string, string> = {};
    for (const name of row.pathParams) path[name] = String(args[i++]);
    const body = row.body ? args[i++] : undefined;
    const query = row.query.length > 0 ? (args[i++] as Record<string, unknown> | undefined) : undefined;
    const options = args[i] as RequestOptions | undefined;
    return (await this.request(id, { path, query, body }, options)).data;
  }

  /**
   * One operation by its operationId, with the whole answer (status, headers, request id,
   * attempts). Retries 429, 5xx and connection failures — for GETs, and for POSTs that take
   * an Idempotency-Key (with the same key every time) — honouring Retry-After, within the
   * policy's attempts and total time. Throws a PrsError for an error answer.
   */
  async request<Id extends OperationId>(id: Id, input: RequestInput = {}, options: RequestOptions = {}): Promise<PrsResponse<ResponseData<Id>>> {
    const row = operationTable[id] as (typeof operationTable)[OperationId];
    if (!row) throw new TypeError(`unknown operation ${String(id)}`);
    const policy = { ...this.#retry, ...options.retry };
    const url = this.#url(row, input);
    const headers = new Headers(options.headers);
    headers.set("Accept", row.response === "json" ? "application/json" : "text/plain");
    const key = options.apiKey ?? (row.auth === "bearerAuth" ? this.#apiKey : undefined);
    if (row.auth && key) headers.set("Authorization", `Bearer ${key}`);
    let body: string | FormData | undefined;
    if (typeof FormData !== "undefined" && input.body instanceof FormData) {
      body = input.body; // fetch sets the multipart Content-Type with its boundary
    } else if (input.body !== undefined) {
      body = JSON.stringify(input.body);
      headers.set("Content-Type", "application/json");
    }
    const idempotencyKey = row.idempotent ? (options.idempotencyKey ?? randomUUID()) : undefined;
    if (idempotencyKey) headers.set("Idempotency-Key", idempotencyKey);
    // A retry must not do the work twice: GETs are safe; a POST only when its key makes the server answer a repeat with the first answer.
    const retrySafe = row.method === "GET" || idempotencyKey !== undefined;

    const started = Date.now();
    for (let attempt = 1; ; attempt++) {
      let failure: PrsError;
      let waitMs: number | null = null;
      try {
        const res = await this.#fetchOnce(url, { method: row.method, headers, body }, options, attempt);
        const text = await res.text();
        if (res.ok) {
          let data: unknown = text;
          if (row.response === "json" && text !== "") {
            try {
              data = JSON.parse(text);
            } catch (e) {
              throw new ApiError({ status: res.status, type: "api_error", code: "invalid_response", message: `${row.method} ${row.path} answered ${res.status} with a body that is not JSON`, request_id: res.headers.get("request-id") ?? undefined, attempts: attempt, cause: e });
            }
          }
          return { data: data as ResponseData<Id>, status: res.status, headers: res.headers, request_id: res.headers.get("request-id") ?? undefined, idempotency_key: idempotencyKey, attempts: attempt };
        }
        let parsed: unknown;
        try {
          parsed = JSON.parse(text);
        } catch {
          parsed = undefined;
        }
        const retryAfterMs = parseRetryAfter(res.headers.get("retry-after"));
        failure = errorFromResponse(res.status, res.headers, parsed, {
          attempts: attempt, ...(retryAfterMs === null ? {} : { retry_after: Math.ceil(retryAfterMs / 1000) }),
        });
        const inUse = failure.code === "idempotency_key_in_use"; // the first try of this very request is still running
        if (!retrySafe || !(retryableStatus(res.status) || inUse)) throw failure;
        waitMs = retryAfterMs;
      } catch (e) {
        if (options.signal?.aborted) throw e;
        if (!(e instanceof PrsConnectionError)) throw e;
        failure = e;
        if (!retrySafe) throw e;
      }
      const wait = waitMs ?? backoffMs(attempt, policy);
      if (attempt >= policy.maxAttempts || Date.now() - started + wait > policy.maxElapsedMs) throw failure;
      await sleep(wait, options.signal);
    }
  }

  /** One attempt; no answer at all is a PrsConnectionError (unless the caller aborted). */
  async #fetchOnce(url: string, init: { method: string; headers: Headers; body: string | FormData | undefined }, options: RequestOptions, attempt: number): Promise<Response> {
    const timeoutMs = options.timeoutMs ?? this.#timeoutMs;
    const timeout = AbortSignal.timeout(timeoutMs);
    const signal = options.signal ? AbortSignal.any([options.signal, timeout]) : timeout;
    try {
      return await this.#fetch(url, { ...init, signal });
    } catch (e) {
      if (options.signal?.aborted) throw e;
      const timedOut = timeout.aborted;
      throw new PrsConnectionError({
        status: 0, type: "connection_error", code: timedOut ? "timeout" : "connection_failed", attempts: attempt, cause: e,
        message: timedOut ? `no answer from ${url} within ${timeoutMs} ms` : `could not reach ${url}: ${(e as Error).message}`,
      });
    }
  }

  #url(row: (typeof operationTable)[OperationId], input: RequestInput): string {
    const p = row.path.replace(/\{([^}]+)\}/g, (_, name: string) => {
      const v = input.path?.[name];
      if (v === undefined || v === "") throw new TypeError(`missing path parameter ${name} for ${row.method} ${row.path}`);
      return encodeURIComponent(v);
    });
    const qs = new URLSearchParams();
    for (const [k, v] of Object.entries(input.query ?? {})) if (v !== undefined && v !== null) qs.append(k, String(v));
    const s = qs.toString();
    return `${this.baseUrl}${p}${s ? `?${s}` : ""}`;
  }

  /**
   * The service's published keys (GET /.well-known/jwks.json), kept for the answer's max-age
   * (else jwksTtlMs). `refresh: true` fetches them again, as you should on an unknown kid.
   */
  jwks(options: { refresh?: boolean } = {}): Promise<Jwks> {
    if (!options.refresh && this.#jwks && this.#jwks.expires > Date.now()) return this.#jwks.value;
    const entry = {
      expires: Infinity,
      value: this.request("getJwks").then(
        (r) => {
          entry.expires = Date.now() + (maxAge(r.headers.get("cache-control")) ?? this.#jwksTtlMs);
          return r.data as Jwks;
        },
        (e: unknown) => {
          if (this.#jwks === entry) this.#jwks = undefined; // a failure is not kept
          throw e;
        },
      ),
    };
    this.#jwks = entry;
    return entry.value;
  }

  /** Verify with the cached JWKS, fetching it again once if the answer names a key it does not hold (a rotation). */
  async #withJwks(check: (jwks: Jwks) => Promise<VerifyResult>): Promise<VerifyResult> {
    const r = await check(await this.jwks());
    return !r.valid && r.code === "unknown_key" ? check(await this.jwks({ refresh: true })) : r;
  }

  /** verifyStatus with this service's keys. */
  verifyStatus(answer: unknown, options: { verificationId?: string; log?: CheckpointPolicy } = {}) {
    return this.#withJwks((jwks) => verifyStatus(answer, jwks, options));
  }

  /** verifyLookup with this service's keys. */
  verifyLookup(answer: unknown) {
    return this.#withJwks((jwks) => verifyLookup(answer, jwks));
  }

  /** verifyCheck with this service's keys. */
  verifyCheck(answer: unknown) {
    return this.#withJwks((jwks) => verifyCheck(answer, jwks));
  }
}
