/**
 * One GET (or JSON POST) to an outside source over HTTP(S). The caller passes the base URL and timeout
 * (read from lib/env.ts) and maps the answer to a SourceResult. Never throws: a refused
 * connection, a timeout (connect, headers or body), a redirect, a body over the size cap
 * or a body that is not JSON all come back as data.
 */
export type HttpSource = { baseUrl: string; timeoutMs: number };

export type HttpAnswer =
  /** The source answered with a status; `body` is its parsed JSON, or `bodyError` says why there is none. */
  | { kind: "answered"; status: number; retryAfter: string | null; body: unknown; bodyError?: string; bodyText?: string; /** the whole body as sent (for a hash over the source's exact words) */ text: string }
  /** No answer: `reason` is a short phrase ("did not answer within 700 ms"). */
  | { kind: "failed"; reason: string };

/** Bigger answers are not read: no source we ask sends more for one record. */
export const MAX_BODY_BYTES = 1_000_000;

export async function getJson(
  source: HttpSource, path: string, headers: Record<string, string> = {},
): Promise<HttpAnswer> {
  const url = `${source.baseUrl.replace(/\/+$/, "")}/${path.replace(/^\/+/, "")}`;
  return exchange(source, url, { headers: { accept: "application/json", ...headers } });
}

/** One POST of a JSON body to the source's base URL itself (an RPC-style API such as the vault info API). */
export async function postJson(source: HttpSource, body: unknown): Promise<HttpAnswer> {
  return exchange(source, source.baseUrl, {
    method: "POST",
    headers: { accept: "application/json", "content-type": "application/json" },
    body: JSON.stringify(body),
  });
}

/**
 * The whole exchange — connect, headers and body — ends at `timeoutMs`, whatever fetch does:
 * an explicit timer holds the controller (a signal only fetch holds can be lost to garbage
 * collection, nodejs/undici#4068), and the body is read racing the signal (a read that started
 * before the abort can stay pending for good, nodejs/node#56917). Without both, a source that
 * sends headers and then stalls hung the caller — seen in CI as a test that ran into vitest's
 * 30 s limit; in production it would hold the sweep.
 */
async function exchange(source: HttpSource, url: string, init: RequestInit): Promise<HttpAnswer> {
  const controller = new AbortController();
  const timer = setTimeout(() => controller.abort(new DOMException(`no answer within ${source.timeoutMs} ms`, "TimeoutError")), source.timeoutMs);
  try {
    let res: Response;
    try {
      res = await fetch(url, { ...init, signal: controller.signal, redirect: "error", cache: "no-store" });
    } catch (e) {
      return { kind: "failed", reason: failure(e, source.timeoutMs) };
    }
    let text: string;
    try {
      text = await readCapped(res, controller.signal);
    } catch (e) {
      return { kind: "failed", reason: failure(e, source.timeoutMs) };
    }
    return answerOf(res, text);
  } finally {
    clearTimeout(timer);
  }
}

function answerOf(res: Response, text: string): HttpAnswer {
  const retryAfter = res.headers.get("retry-after");
  try {
    return { kind: "answered", status: res.status, retryAfter, body: JSON.parse(text), text };
  } catch {
    return { kind: "answered", status: res.status, retryAfter, body: undefined, bodyError: "the answer is not JSON", bodyText: text.slice(0, 200), text };
  }
}

class TooLarge extends Error {}

async function readCapped(res: Response, signal: AbortSignal): Promise<string> {
  if (!res.body) return "";
  const reader = res.body.getReader();
  const aborted = new Promise<never>((_, reject) => {
    if (signal.aborted) reject(signal.reason);
    signal.addEventListener("abort", () => reject(signal.reason), { once: true });
  });
  aborted.catch(() => {}); // settled by the race below, or never looked at
  const chunks: Uint8Array[] = [];
  let size = 0;
  for (;;) {
    let next: ReadableStreamReadResult<Uint8Array>;
    try {
      next = await Promise.race([reader.read(), aborted]);
    } catch (e) {
      await reader.cancel().catch(() => {});
      throw e;
    }
    const { done, value } = next;
    if (done) break;
    size += value.byteLength;
    if (size > MAX_BODY_BYTES) {
      await reader.cancel().catch(() => {});
      throw new TooLarge();
    }
    chunks.push(value);
  }
  return Buffer.concat(chunks).toString("utf8");
}

function failure(e: unknown, timeoutMs: number): string {
  if (e instanceof TooLarge) return `sent an answer larger than ${MAX_BODY_BYTES} bytes`;
  const err = e as Error & { cause?: { code?: string; message?: string } };
  if (err?.name === "TimeoutError" || err?.name === "AbortError") return `did not answer within ${timeoutMs} ms`;
  const code = err?.cause?.code;
  if (code) return `could not be reached (${code})`;
  if (/redirect/i.test(`${err?.message} ${err?.cause?.message ?? ""}`)) return "answered with a redirect, which is not followed";
  return `could not be reached (${(err?.cause?.message || err?.name || "error").slice(0, 80)})`;
}
