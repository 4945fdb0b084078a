import { createHash, createHmac } from "node:crypto";
import { z } from "zod";
import { getJson } from "./http";

/*
 * The exchange's private REST API (protocols.md §2, Bybit V5), read with a customer's API
 * key for exchange trade records (issue 17; the claim types are not available yet). Every
 * request is signed as the exchange documents: HMAC-SHA256 (node:crypto) over
 * `timestamp + apiKey + recvWindow + queryString`, lowercase hex, in X-BAPI-* headers.
 *
 * Credentials are used here and nowhere else: no answer, reason or error this module
 * returns contains the key or the secret — and the exchange's own messages are never
 * passed on, since some echo the signed string, key included (retCode 10004).
 */

export type ExchangeSource = { baseUrl: string; timeoutMs: number };
export type Credentials = { apiKey: string; apiSecret: string };

/** What one call gives: the result and its raw answer; the key refused; or no answer. */
export type ExchangeAnswer<T> =
  | { kind: "ok"; result: T; raw: string }
  | { kind: "refused"; reason: string }
  | { kind: "unreachable"; reason: string };

export const RECV_WINDOW_MS = 5000;

/** The signature of one request (protocols.md §2): lowercase hex HMAC-SHA256 of timestamp + key + recvWindow + query. */
export function signature(secret: string, timestamp: string, apiKey: string, recvWindow: string, query: string): string {
  return createHmac("sha256", secret).update(`${timestamp}${apiKey}${recvWindow}${query}`).digest("hex");
}

const envelope = z.object({ retCode: z.number().int(), retMsg: z.string().optional(), result: z.unknown() });

/** retCodes that mean the key itself is refused (unknown, bad signature, expired, wrong IP, no permission). */
const REFUSED: Record<number, string> = {
  10003: "The exchange does not know this API key (or it belongs to another environment: mainnet, testnet or demo).",
  10004: "The exchange refused the request's signature: the API secret does not belong to this key.",
  10005: "The exchange refused: this API key lacks the permission to read it.",
  10010: "The exchange refused: this API key is bound to other IP addresses.",
  33004: "The exchange says this API key has expired.",
};
const BUSY = new Set([10006, 10016, 10018]);

/** One signed GET; `query` is sent exactly as given (and signed so). Never throws. */
export async function signedGet(source: ExchangeSource, path: string, query: string, creds: Credentials, now = Date.now()): Promise<ExchangeAnswer<unknown>> {
  const timestamp = String(now);
  const recv = String(RECV_WINDOW_MS);
  // The exchange, like every outside source, through the one client that bounds the whole exchange (lib/connectors/http.ts).
  const answer = await getJson(source, `${path}${query ? `?${query}` : ""}`, {
    "X-BAPI-API-KEY": creds.apiKey,
    "X-BAPI-TIMESTAMP": timestamp,
    "X-BAPI-RECV-WINDOW": recv,
    "X-BAPI-SIGN": signature(creds.apiSecret, timestamp, creds.apiKey, recv, query),
  });
  if (answer.kind === "failed") {
    if (/larger than/.test(answer.reason)) return { kind: "unreachable", reason: "The exchange sent an answer too large to read." };
    return { kind: "unreachable", reason: /did not answer/.test(answer.reason) ? `The exchange did not answer within ${source.timeoutMs} ms.` : "The exchange could not be reached." };
  }
  if (answer.status === 401) return { kind: "refused", reason: REFUSED[10003]! };
  if (answer.status === 429 || answer.status === 403) return { kind: "unreachable", reason: `The exchange is limiting requests (HTTP ${answer.status}).` };
  if (answer.status !== 200) return { kind: "unreachable", reason: `The exchange answered HTTP ${answer.status}.` };
  const parsed = envelope.safeParse(answer.body);
  if (!parsed.success) return { kind: "unreachable", reason: "The exchange's answer could not be read." };
  const body = parsed.data;
  const text = answer.text;
  if (body.retCode === 0) return { kind: "ok", result: body.result, raw: text };
  const refused = REFUSED[body.retCode];
  if (refused) return { kind: "refused", reason: refused };
  if (body.retCode === 10002) return { kind: "unreachable", reason: "The exchange refused the request's time (retCode 10002): the clocks disagree; try again." };
  if (BUSY.has(body.retCode)) return { kind: "unreachable", reason: `The exchange is busy (retCode ${body.retCode}).` };
  return { kind: "unreachable", reason: `The exchange answered retCode ${body.retCode}.` };
}

/** What the exchange says about the key: whether it can only read, or also withdraw or transfer; whose it is. */
export type KeyInfo = { readOnly: boolean; canWithdraw: boolean; canTransfer: boolean; userId: string; isMaster: boolean };

const keyInfo = z.object({
  readOnly: z.number().int(),
  permissions: z.record(z.string(), z.array(z.string())).default({}),
  userID: z.union([z.number(), z.string()]),
  isMaster: z.boolean().optional(),
  parentUid: z.string().optional(),
});

export async function queryApiKey(source: ExchangeSource, creds: Credentials, now?: number): Promise<ExchangeAnswer<KeyInfo>> {
  const a = await signedGet(source, "/v5/user/query-api", "", creds, now);
  if (a.kind !== "ok") return a;
  const k = keyInfo.safeParse(a.result);
  if (!k.success) return { kind: "unreachable", reason: "The exchange's key information could not be read." };
  const wallet = k.data.permissions.Wallet ?? [];
  return {
    kind: "ok", raw: a.raw,
    result: {
      readOnly: k.data.readOnly === 1,
      canWithdraw: wallet.includes("Withdraw"),
      canTransfer: wallet.some((p) => /Transfer/.test(p)),
      userId: String(k.data.userID),
      isMaster: k.data.isMaster ?? k.data.parentUid === "0",
    },
  };
}

const page = (item: z.ZodType) => z.object({ list: z.array(item), nextPageCursor: z.string().optional().default("") });
const closedPnlRow = z.object({
  symbol: z.string(), orderId: z.string(), side: z.enum(["Buy", "Sell"]), qty: z.string(), closedSize: z.string(),
  avgEntryPrice: z.string(), avgExitPrice: z.string(), closedPnl: z.string(), createdTime: z.string(), updatedTime: z.string(),
}).loose();
export type ClosedPnl = z.infer<typeof closedPnlRow>;
const executionRow = z.object({
  orderId: z.string(), side: z.string(), execPrice: z.string(), execQty: z.string(), execTime: z.string(), execType: z.string(),
}).loose();
export type Execution = z.infer<typeof executionRow>;

/** At most this many pages are read for one order (100 rows each). */
export const MAX_PAGES = 20;

/**
 * Every row of a paged list (following `nextPageCursor`, passed back verbatim and signed so),
 * stopping early once `stop` holds for a row. `raws` are the answers as received, in order.
 */
async function allPages<T>(
  source: ExchangeSource, path: string, params: Record<string, string>, item: z.ZodType<T>, creds: Credentials, stop: (row: T) => boolean,
): Promise<ExchangeAnswer<{ rows: T[]; raws: string[] }>> {
  const rows: T[] = [];
  const raws: string[] = [];
  let cursor = "";
  for (let i = 0; i < MAX_PAGES; i++) {
    const query = [...Object.entries(params).map(([k, v]) => `${k}=${encodeURIComponent(v)}`), ...(cursor ? [`cursor=${cursor}`] : [])].join("&");
    const a = await signedGet(source, path, query, creds);
    if (a.kind !== "ok") return a;
    const p = page(item).safeParse(a.result);
    if (!p.success) return { kind: "unreachable", reason: "The exchange's list could not be read." };
    raws.push(a.raw);
    rows.push(...(p.data.list as T[]));
    if ((p.data.list as T[]).some(stop) || !p.data.nextPageCursor) return { kind: "ok", result: { rows, raws }, raw: raws.join("\n") };
    cursor = p.data.nextPageCursor;
  }
  return { kind: "unreachable", reason: `The exchange's list ran past ${MAX_PAGES} pages.` };
}

/** The closed-P&L row of one order in [startMs, endMs] (at most 7 days), or null when the exchange has none. */
export async function closedPnlOf(
  source: ExchangeSource, creds: Credentials, q: { category: "linear" | "inverse"; orderId: string; startMs: number; endMs: number },
): Promise<ExchangeAnswer<{ row: ClosedPnl | null; raws: string[] }>> {
  const a = await allPages(source, "/v5/position/closed-pnl", {
    category: q.category, startTime: String(q.startMs), endTime: String(q.endMs), limit: "100",
  }, closedPnlRow, creds, (r) => r.orderId === q.orderId);
  if (a.kind !== "ok") return a;
  return { kind: "ok", raw: a.raw, result: { row: a.result.rows.find((r) => r.orderId === q.orderId) ?? null, raws: a.result.raws } };
}

/** The executions (fills) of one order. */
export async function executionsOf(
  source: ExchangeSource, creds: Credentials, q: { category: "linear" | "inverse"; orderId: string; startMs: number; endMs: number },
): Promise<ExchangeAnswer<{ rows: Execution[]; raws: string[] }>> {
  return allPages(source, "/v5/execution/list", {
    category: q.category, orderId: q.orderId, startTime: String(q.startMs), endTime: String(q.endMs), limit: "100",
  }, executionRow, creds, () => false);
}

/** SHA-256 of the raw answers a record rests on, in the order received: what the certificate names. */
export const answersSha256 = (raws: readonly string[]) => createHash("sha256").update(raws.join("\n")).digest("hex");
