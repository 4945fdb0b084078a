// The log of every process: pino's JSON lines on stdout, one object a line, with whatever
// must never be written replaced by "[redacted]". Plain ESM (types in json-log.d.mts) so
// scripts/serve.mjs, which runs without the app's TypeScript, shares the one logger and the
// one redaction with the app inside it; the app and the worker reach it through
// lib/log/logger.ts.
import { AsyncLocalStorage } from "node:async_hooks";
import { format } from "node:util";
import pino from "pino";
import { describeError } from "./describe-error.mjs";

export const REDACTED = "[redacted]";
export const LOG_LEVELS = /** @type {const} */ (["fatal", "error", "warn", "info", "debug", "trace", "silent"]);
/** The header scripts/serve.mjs hands each request's id to the app in (a client's own is overwritten). */
export const REQUEST_ID_HEADER = "x-request-id";
export const REQUEST_ID_RE = /^req_[0-9a-hjkmnp-tv-z]{20}$/;

/** pino's redaction of known places: request headers and private JWKs wherever we log them whole. */
export const REDACT_PATHS = [
  "authorization", "cookie", "headers.authorization", "headers.cookie", 'headers["set-cookie"]',
  "req.headers.authorization", "req.headers.cookie", "*.headers.authorization", "*.headers.cookie",
  "jwk.d", "key.d", "keys[*].d", "*.jwk.d",
];

/** Field names whose value is secret at any depth: webhook_secret, api_secret, password, api_key, token, signature … */
const SECRET_NAME = "[\\w.-]*(?:secret|passw(?:or)?d|token|signature|api_?key|authorization|cookie|private_?key|credential)[\\w.-]*";
const SECRET_FIELD = new RegExp(`^${SECRET_NAME}$`, "i");

/** @type {Array<[RegExp, string]>} */
const TEXT_PATTERNS = [
  [/prs_(?:live|sandbox)_[0-9A-Za-z]+/g, REDACTED], // API keys
  [/whsec_[A-Za-z0-9+/=_-]+/g, REDACTED], // webhook secrets
  [/\b(Bearer|Basic)\s+[^\s"'\\,;]+/gi, `$1 ${REDACTED}`], // an Authorization header's value
  [/-----BEGIN [A-Z ]*PRIVATE KEY-----[\s\S]*?-----END [A-Z ]*PRIVATE KEY-----/g, REDACTED],
  [/(\b[a-z][a-z0-9+.-]*:\/\/[^\s:/@"'\\]*:)[^\s@/"'\\]+@/gi, `$1${REDACTED}@`], // a URL's password (postgres://u:p@h)
  [/(\\?"d\\?"\s*:\s*\\?")[A-Za-z0-9_-]{16,}/g, `$1${REDACTED}`], // a JWK's private part written as text
  // name=value (query strings, form bodies, cookies) and name: "value" (JSON or inspected objects as text)
  [new RegExp(`(${SECRET_NAME}=)[^\\s&"'\\\\;,]+`, "gi"), `$1${REDACTED}`],
  [new RegExp(`(${SECRET_NAME}\\\\?["']?\\s*:\\s*\\\\?["'])[^"'\\\\]+`, "gi"), `$1${REDACTED}`],
];

/**
 * Every secret pattern in `text` replaced: run over each finished line, so it covers messages,
 * fields and error descriptions alike.
 * @param {string} text
 */
export function redactText(text) {
  let out = text;
  for (const [re, to] of TEXT_PATTERNS) out = out.replace(re, to);
  return out;
}

/**
 * A copy of `value` fit for the log: secret-named fields and a JWK's `d` replaced, errors
 * (at any depth) described by describeError — never with a failed query's parameters.
 * @param {unknown} value
 * @returns {unknown}
 */
export function redactFields(value, depth = 0) {
  if (value === null || typeof value !== "object") return value;
  if (value instanceof Error || typeof (/** @type {{ query?: unknown }} */ (value).query) === "string") return describeError(value);
  if (depth > 8) return "[too deep]";
  if (Array.isArray(value)) return value.map((v) => redactFields(v, depth + 1));
  const o = /** @type {Record<string, unknown>} */ (value);
  const jwk = typeof o.kty === "string";
  /** @type {Record<string, unknown>} */
  const out = {};
  for (const [k, v] of Object.entries(o)) out[k] = SECRET_FIELD.test(k) || (jwk && k === "d") ? REDACTED : redactFields(v, depth + 1);
  return out;
}

/** @param {unknown} level @returns {(typeof LOG_LEVELS)[number]} */
const levelOf = (level) => (LOG_LEVELS.includes(/** @type {never} */ (level)) ? /** @type {(typeof LOG_LEVELS)[number]} */ (level) : "info");

const state = /** @type {{ __prsLog?: { als: AsyncLocalStorage<{ request_id: string }>, logger?: import("pino").Logger, routed?: boolean } }} */ (
  globalThis
).__prsLog ??= { als: new AsyncLocalStorage() };

/**
 * Run `fn` as the handling of request `id`: every line logged meanwhile carries `request_id`.
 * @template T
 * @param {string} id
 * @param {() => T} fn
 * @returns {T}
 */
export const runWithRequestId = (id, fn) => state.als.run({ request_id: id }, fn);
export const currentRequestId = () => state.als.getStore()?.request_id;

/**
 * pino's options for every logger of the service (level as LOG_LEVEL says, an unknown one
 * read as info: lib/env.ts refuses it at start with the setting named).
 * @param {unknown} level
 * @returns {import("pino").LoggerOptions}
 */
export function loggerOptions(level) {
  return {
    level: levelOf(level),
    redact: { paths: REDACT_PATHS, censor: REDACTED },
    // formatters.log has described errors already; this is for an `err` it did not see.
    serializers: { err: (e) => (typeof e === "string" ? e : describeError(e)) },
    mixin: () => {
      const id = currentRequestId();
      return id ? { request_id: id } : {};
    },
    formatters: { log: (o) => /** @type {Record<string, unknown>} */ (redactFields(o)) },
    hooks: {
      // pino takes an error's message as the line's `msg` when none is given; a failed
      // query's message lists its parameters, so the message is describeError's first line.
      logMethod(args, method) {
        const [first, second] = /** @type {unknown[]} */ (args);
        const err = first instanceof Error ? first : first && typeof first === "object" && "err" in first ? first.err : undefined;
        if (err !== undefined && typeof second !== "string") {
          const obj = first instanceof Error ? { err: first } : first;
          return method.apply(this, /** @type {never} */ ([obj, describeError(err).split("\n")[0]]));
        }
        return method.apply(this, args);
      },
      streamWrite: redactText,
    },
  };
}

/**
 * A logger with the service's options writing to `destination` (tests capture it).
 * @param {unknown} level
 * @param {import("pino").DestinationStream} destination
 */
export const createLogger = (level, destination) => pino(loggerOptions(level), destination);

/**
 * The process's logger, on stdout (synchronous writes: a line is out before a crash or an
 * exit). One per process: scripts/serve.mjs makes it first, the app's copy of this module
 * finds the same one.
 * @param {unknown} level
 */
export function getLogger(level) {
  return (state.logger ??= createLogger(level, pino.destination({ fd: 1, sync: true })));
}

const CONSOLE_LEVELS = /** @type {const} */ ({ log: "info", info: "info", debug: "debug", warn: "warn", error: "error" });
// eslint-disable-next-line no-control-regex
const ANSI = /\x1b\[[0-9;]*m/g;

/**
 * What a console call would print, as one message: errors described by describeError (no
 * query parameters), the rest as console.log formats it, without colours.
 * @param {unknown[]} args
 */
export function consoleMessage(args) {
  const parts = args.map((a) => (a instanceof Error || (a !== null && typeof a === "object" && "query" in a) ? describeError(a) : a));
  return format(...parts).replace(ANSI, "").trimEnd();
}

/**
 * Node's error for a request whose client closed the connection before its body had arrived
 * (`abortIncoming`: "aborted", ECONNRESET). Next reports it with console.error when its proxy
 * step was still reading the body; it is the client's doing, not the server's.
 * @param {unknown} e
 */
const clientHangUp = (e) => e instanceof Error && e.message === "aborted" && /** @type {{ code?: unknown }} */ (e).code === "ECONNRESET";

/**
 * console.log/info/debug/warn/error — Next's own reports, React's, a library's — and Node's
 * process warnings come out as JSON lines of `logger` (`source: "console"` / `"warning"`).
 * @param {import("pino").Logger} logger
 */
export function routeConsole(logger) {
  if (state.routed) return;
  state.routed = true;
  for (const [name, level] of Object.entries(CONSOLE_LEVELS)) {
    console[/** @type {keyof typeof CONSOLE_LEVELS} */ (name)] = (...args) => {
      if (clientHangUp(args[0])) {
        logger.info({ source: "console", err: "Error: aborted" }, "client closed the request");
        return;
      }
      const msg = consoleMessage(args);
      if (msg) logger[level]({ source: "console" }, msg);
    };
  }
  // Node prints warnings (deprecations, experimental features) to stderr as text by itself.
  for (const l of process.listeners("warning")) process.off("warning", l);
  process.on("warning", (w) => logger.warn({ source: "warning", warning: w.name, code: /** @type {{ code?: string }} */ (w).code }, w.message));
}
