import { createHmac, timingSafeEqual } from "node:crypto";
import fs from "node:fs";
import http from "node:http";
import type { AddressInfo } from "node:net";

/*
 * A stand-in for the exchange's private API (protocols.md §2, Bybit V5), a real HTTP server
 * on loopback. It checks each request as the exchange does — the X-BAPI-* headers, the
 * HMAC-SHA256 signature over timestamp + key + recvWindow + query string, the time window —
 * and answers in the exchange's envelope, errors as HTTP 200 with a retCode (10003 unknown
 * key, 10004 bad signature — echoing the signed string, key included, as the real one
 * does —, 10002 time). Data: a JSON file read on every request.
 */
export type ExchangeKey = {
  secret: string;
  readOnly?: 0 | 1;
  permissions?: Record<string, string[]>;
  userID?: number;
  isMaster?: boolean;
  parentUid?: string;
};
export type ExchangeData = {
  keys: Record<string, ExchangeKey>;
  /** apiKey → closed-P&L rows, newest first. */
  closedPnl?: Record<string, Record<string, string>[]>;
  /** apiKey → executions. */
  executions?: Record<string, Record<string, unknown>[]>;
  /** Rows per page (the exchange's limit is 100; small here to exercise the cursor). */
  pageSize?: number;
  failStatus?: number;
  retCode?: number;
  delayMs?: number;
};

export const writeExchange = (file: string, data: ExchangeData) => fs.writeFileSync(file, JSON.stringify(data));

export type ExchangeRequest = { path: string; query: string; apiKey: string };

export async function startExchange(file: string) {
  const requests: ExchangeRequest[] = [];
  const server = http.createServer((req, res) => {
    const data: ExchangeData = JSON.parse(fs.readFileSync(file, "utf8"));
    const answer = (body: unknown, status = 200) => {
      res.writeHead(status, { "content-type": "application/json" });
      res.end(JSON.stringify(body));
    };
    const envelope = (retCode: number, retMsg: string, result: unknown = {}) => answer({ retCode, retMsg, result, retExtInfo: {}, time: Date.now() });
    // time under test: `delayMs` plays an exchange that answers late, for the service's timeout (0 by default).
    setTimeout(() => {
      const url = req.url ?? "/";
      const [path, query = ""] = url.split("?", 2) as [string, string?];
      if (data.failStatus) return answer(null, data.failStatus);
      const apiKey = String(req.headers["x-bapi-api-key"] ?? "");
      const timestamp = String(req.headers["x-bapi-timestamp"] ?? "");
      const recv = String(req.headers["x-bapi-recv-window"] ?? "5000");
      const sign = String(req.headers["x-bapi-sign"] ?? "");
      requests.push({ path, query, apiKey });
      if (data.retCode) return envelope(data.retCode, "stand-in refusal");
      const key = data.keys[apiKey];
      if (!key) return envelope(10003, "API key is invalid.");
      const origin = `${timestamp}${apiKey}${recv}${query}`;
      const expected = createHmac("sha256", key.secret).update(origin).digest("hex");
      if (sign.length !== expected.length || !timingSafeEqual(Buffer.from(sign), Buffer.from(expected))) {
        return envelope(10004, `error sign! origin_string[${origin}]`);
      }
      const ts = Number(timestamp);
      if (!(Date.now() - Number(recv) <= ts && ts < Date.now() + 1000)) return envelope(10002, "invalid request, please check your server timestamp or recv_window param.");
      const params = new URLSearchParams(query);
      const pageOf = (rows: unknown[]) => {
        const size = data.pageSize ?? 100;
        const start = Number(/page:(\d+)/.exec(params.get("cursor") ?? "")?.[1] ?? 0);
        const list = rows.slice(start, start + size);
        // An opaque, URL-encoded cursor as the exchange sends it (passed back verbatim).
        const next = start + size < rows.length ? encodeURIComponent(`page:${start + size},${apiKey.length}`) : "";
        return { category: params.get("category"), list, nextPageCursor: next };
      };
      switch (path) {
        case "/v5/user/query-api":
          return envelope(0, "", {
            id: "2208369", note: "stand-in", apiKey, readOnly: key.readOnly ?? 1, secret: "", permissions: key.permissions ?? { ContractTrade: ["Order", "Position"], Wallet: [] },
            ips: [], type: 1, userID: key.userID ?? 1448939, isMaster: key.isMaster ?? true, parentUid: key.parentUid ?? "0", uta: 1,
          });
        case "/v5/position/closed-pnl": {
          const rows = (data.closedPnl?.[apiKey] ?? []).filter((r) => {
            const t = Number(r.createdTime);
            return t >= Number(params.get("startTime") ?? 0) && t <= Number(params.get("endTime") ?? Infinity);
          });
          return envelope(0, "OK", pageOf(rows));
        }
        case "/v5/execution/list": {
          const rows = (data.executions?.[apiKey] ?? []).filter((r) => r.orderId === params.get("orderId"));
          return envelope(0, "OK", pageOf(rows));
        }
        default:
          return envelope(10017, "route not found");
      }
    }, data.delayMs ?? 0);
  });
  await new Promise<void>((r) => server.listen(0, "127.0.0.1", () => r()));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    requests,
    close: () => new Promise<void>((r) => { server.closeAllConnections(); server.close(() => r()); }),
  };
}
