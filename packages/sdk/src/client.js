// The client: one method per operation of the OpenAPI document (methods.ts names them,
// generated/operations.ts says how each is called), with retries, idempotency keys and
// typed errors in one place, request().
import { randomUUID } from "node:crypto";
import { ApiError, errorFromResponse, PrsConnectionError } from "./errors.js";
import { operationTable } from "./generated/operations.js";
import { methodEntries } from "./methods.js";
import { backoffMs, DEFAULT_RETRY, parseRetryAfter, retryableStatus } from "./retry.js";
import { verifyCheck, verifyLookup, verifyStatus } from "./verify.js";
const sleep = (ms, signal) => new Promise((resolve, reject) => {
    if (signal?.aborted)
        return reject(signal.reason);
    const t = setTimeout(() => {
        signal?.removeEventListener("abort", onAbort);
        resolve();
    }, ms);
    const onAbort = () => {
        clearTimeout(t);
        reject(signal.reason);
    };
    signal?.addEventListener("abort", onAbort, { once: true });
});
function maxAge(cacheControl) {
    const m = /(?:^|,)\s*max-age=(\d+)/i.exec(cacheControl ?? "");
    return m ? Number(m[1]) * 1000 : null;
}
// eslint-disable-next-line @typescript-eslint/no-unsafe-declaration-merging
export class PrsClient {
    baseUrl;
    #apiKey;
    #retry;
    #timeoutMs;
    #jwksTtlMs;
    #fetch;
    #jwks;
    constructor(options) {
        this.baseUrl = options.baseUrl.replace(/\/+$/, "");
        this.#apiKey = options.apiKey;
        this.#retry = { ...DEFAULT_RETRY, ...options.retry };
        this.#timeoutMs = options.timeoutMs ?? 30_000;
        this.#jwksTtlMs = options.jwksTtlMs ?? 300_000;
        this.#fetch = options.fetch ?? ((...a) => fetch(...a));
        for (const [names, id] of methodEntries()) {
            if (id === "getJwks")
                continue;
            let target = this;
            for (const n of names.slice(0, -1))
                target = (target[n] ??= {});
            target[names.at(-1)] = (...args) => this.#invoke(id, args);
        }
    }
    /** Positional arguments (path parameters, body, query, options) to request(). */
    async #invoke(id, args) {
        const row = operationTable[id];
        let i = 0;
        const path = {};
        for (const name of row.pathParams)
            path[name] = String(args[i++]);
        const body = row.body ? args[i++] : undefined;
        const query = row.query.length > 0 ? args[i++] : undefined;
        const options = args[i];
        return (await this.request(id, { path, query, body }, options)).data;
    }
    /**
     * One operation by its operationId, with the whole answer (status, headers, request id,
     * attempts). Retries 429, 5xx and connection failures — for GETs, and for POSTs that take
     * an Idempotency-Key (with the same key every time) — honouring Retry-After, within the
     * policy's attempts and total time. Throws a PrsError for an error answer.
     */
    async request(id, input = {}, options = {}) {
        const row = operationTable[id];
        if (!row)
            throw new TypeError(`unknown operation ${String(id)}`);
        const policy = { ...this.#retry, ...options.retry };
        const url = this.#url(row, input);
        const headers = new Headers(options.headers);
        headers.set("Accept", row.response === "json" ? "application/json" : "text/plain");
        const key = options.apiKey ?? (row.auth === "bearerAuth" ? this.#apiKey : undefined);
        if (row.auth && key)
            headers.set("Authorization", `Bearer ${key}`);
        let body;
        if (typeof FormData !== "undefined" && input.body instanceof FormData) {
            body = input.body; // fetch sets the multipart Content-Type with its boundary
        }
        else if (input.body !== undefined) {
            body = JSON.stringify(input.body);
            headers.set("Content-Type", "application/json");
        }
        const idempotencyKey = row.idempotent ? (options.idempotencyKey ?? randomUUID()) : undefined;
        if (idempotencyKey)
            headers.set("Idempotency-Key", idempotencyKey);
        // A retry must not do the work twice: GETs are safe; a POST only when its key makes the server answer a repeat with the first answer.
        const retrySafe = row.method === "GET" || idempotencyKey !== undefined;
        const started = Date.now();
        for (let attempt = 1;; attempt++) {
            let failure;
            let waitMs = null;
            try {
                const res = await this.#fetchOnce(url, { method: row.method, headers, body }, options, attempt);
                const text = await res.text();
                if (res.ok) {
                    let data = text;
                    if (row.response === "json" && text !== "") {
                        try {
                            data = JSON.parse(text);
                        }
                        catch (e) {
                            throw new ApiError({ status: res.status, type: "api_error", code: "invalid_response", message: `${row.method} ${row.path} answered ${res.status} with a body that is not JSON`, request_id: res.headers.get("request-id") ?? undefined, attempts: attempt, cause: e });
                        }
                    }
                    return { data: data, status: res.status, headers: res.headers, request_id: res.headers.get("request-id") ?? undefined, idempotency_key: idempotencyKey, attempts: attempt };
                }
                let parsed;
                try {
                    parsed = JSON.parse(text);
                }
                catch {
                    parsed = undefined;
                }
                const retryAfterMs = parseRetryAfter(res.headers.get("retry-after"));
                failure = errorFromResponse(res.status, res.headers, parsed, {
                    attempts: attempt, ...(retryAfterMs === null ? {} : { retry_after: Math.ceil(retryAfterMs / 1000) }),
                });
                const inUse = failure.code === "idempotency_key_in_use"; // the first try of this very request is still running
                if (!retrySafe || !(retryableStatus(res.status) || inUse))
                    throw failure;
                waitMs = retryAfterMs;
            }
            catch (e) {
                if (options.signal?.aborted)
                    throw e;
                if (!(e instanceof PrsConnectionError))
                    throw e;
                failure = e;
                if (!retrySafe)
                    throw e;
            }
            const wait = waitMs ?? backoffMs(attempt, policy);
            if (attempt >= policy.maxAttempts || Date.now() - started + wait > policy.maxElapsedMs)
                throw failure;
            await sleep(wait, options.signal);
        }
    }
    /** One attempt; no answer at all is a PrsConnectionError (unless the caller aborted). */
    async #fetchOnce(url, init, options, attempt) {
        const timeoutMs = options.timeoutMs ?? this.#timeoutMs;
        const timeout = AbortSignal.timeout(timeoutMs);
        const signal = options.signal ? AbortSignal.any([options.signal, timeout]) : timeout;
        try {
            return await this.#fetch(url, { ...init, signal });
        }
        catch (e) {
            if (options.signal?.aborted)
                throw e;
            const timedOut = timeout.aborted;
            throw new PrsConnectionError({
                status: 0, type: "connection_error", code: timedOut ? "timeout" : "connection_failed", attempts: attempt, cause: e,
                message: timedOut ? `no answer from ${url} within ${timeoutMs} ms` : `could not reach ${url}: ${e.message}`,
            });
        }
    }
    #url(row, input) {
        const p = row.path.replace(/\{([^}]+)\}/g, (_, name) => {
            const v = input.path?.[name];
            if (v === undefined || v === "")
                throw new TypeError(`missing path parameter ${name} for ${row.method} ${row.path}`);
            return encodeURIComponent(v);
        });
        const qs = new URLSearchParams();
        for (const [k, v] of Object.entries(input.query ?? {}))
            if (v !== undefined && v !== null)
                qs.append(k, String(v));
        const s = qs.toString();
        return `${this.baseUrl}${p}${s ? `?${s}` : ""}`;
    }
    /**
     * The service's published keys (GET /.well-known/jwks.json), kept for the answer's max-age
     * (else jwksTtlMs). `refresh: true` fetches them again, as you should on an unknown kid.
     */
    jwks(options = {}) {
        if (!options.refresh && this.#jwks && this.#jwks.expires > Date.now())
            return this.#jwks.value;
        const entry = {
            expires: Infinity,
            value: this.request("getJwks").then((r) => {
                entry.expires = Date.now() + (maxAge(r.headers.get("cache-control")) ?? this.#jwksTtlMs);
                return r.data;
            }, (e) => {
                if (this.#jwks === entry)
                    this.#jwks = undefined; // a failure is not kept
                throw e;
            }),
        };
        this.#jwks = entry;
        return entry.value;
    }
    /** Verify with the cached JWKS, fetching it again once if the answer names a key it does not hold (a rotation). */
    async #withJwks(check) {
        const r = await check(await this.jwks());
        return !r.valid && r.code === "unknown_key" ? check(await this.jwks({ refresh: true })) : r;
    }
    /** verifyStatus with this service's keys. */
    verifyStatus(answer, options = {}) {
        return this.#withJwks((jwks) => verifyStatus(answer, jwks, options));
    }
    /** verifyLookup with this service's keys. */
    verifyLookup(answer) {
        return this.#withJwks((jwks) => verifyLookup(answer, jwks));
    }
    /** verifyCheck with this service's keys. */
    verifyCheck(answer) {
        return this.#withJwks((jwks) => verifyCheck(answer, jwks));
    }
}
