// The production server: Next's request handler behind node:http, so the client address
// the app sees (X-Forwarded-For, read by the sign-in and sign-up rate limits) is the
// socket's unless TRUST_PROXY=1 says a proxy in front sets it. `next start` would keep a
// client-supplied X-Forwarded-For as it is, letting anyone pick their own address.
// Every line it writes — its own, the app's, Next's — is one JSON object (lib/log/json-log.mjs),
// and every request gets one access line when its answer is done.
// Usage: node scripts/serve.mjs -p PORT -H HOST   (npm start runs it after building)
import { randomBytes } from "node:crypto";
import fs from "node:fs";
import http from "node:http";
import path from "node:path";
import { getLogger, REQUEST_ID_HEADER, routeConsole, runWithRequestId } from "../lib/log/json-log.mjs";

// Before Next is loaded, so what it reports through console.* comes out as JSON lines too.
// LOG_LEVEL is read here as the app reads it (lib/env.ts validates it at boot).
const log = getLogger(process.env.LOG_LEVEL);
routeConsole(log);

// As `next start` does: a production build runs with React's and Next's production runtimes,
// which are chosen by NODE_ENV when Next is loaded — hence set first, then import.
process.env.NODE_ENV = "production";
process.env.NEXT_RUNTIME = "nodejs";
const { default: next } = await import("next");

const root = path.resolve(path.dirname(new URL(import.meta.url).pathname), "..");
const arg = (flag, fallback) => {
  const i = process.argv.indexOf(flag);
  return i > 0 && process.argv[i + 1] ? process.argv[i + 1] : fallback;
};
const port = Number(arg("-p", process.env.PORT || "3000"));
const hostname = arg("-H", process.env.HOSTNAME || "127.0.0.1");
const trustProxy = process.env.TRUST_PROXY === "1";
// The constant security headers, set before Next sees the request: answers Next writes
// before its routing (or this file writes itself) carry them too. proxy.ts replaces the
// CSP with a page's nonce policy and adds HSTS (lib/http/security-headers.ts).
const baselineHeaders = Object.entries(JSON.parse(fs.readFileSync(path.join(root, "lib", "http", "baseline-headers.json"), "utf8")));

// The operator CLI's way in (app/api/internal/admin): a listener of its own on loopback, on a
// port the system picks, never the public one — so the admin endpoint is not reachable through
// the port (or the proxy) the world uses. Requests through it carry a mark only this process
// knows; the route refuses any request without it. Listening before Next boots: the runtime
// file the CLI reads (lib/admin/runtime-file.ts) names this port.
const INTERNAL_HEADER = "x-prs-internal-listener";
const internalMark = randomBytes(24).toString("base64url");
let handle = null;
const internal = http.createServer((req, res) => {
  const id = requestId();
  runWithRequestId(id, () => {
    if (req.method !== "POST" || pathOf(req.url ?? "/") !== "/api/internal/admin" || !handle) {
      res.writeHead(handle ? 404 : 503, { "Content-Type": "application/json; charset=utf-8", "Cache-Control": "no-store" });
      res.end(JSON.stringify({ error: { type: "invalid_request_error", code: handle ? "not_found" : "unavailable", message: handle ? "Not found." : "Starting.", request_id: id } }));
      return;
    }
    req.headers[REQUEST_ID_HEADER] = id;
    req.headers[INTERNAL_HEADER] = internalMark;
    req.headers["x-forwarded-for"] = req.socket.remoteAddress ?? "unknown";
    handle(req, res).catch((err) => {
      log.error({ err }, "request failed");
      if (!res.headersSent) {
        res.statusCode = 500;
        res.end();
      }
    });
  });
});
await new Promise((resolve) => internal.listen(0, "127.0.0.1", resolve));
process.env.PRS_INTERNAL_MARK = internalMark;
process.env.PRS_ADMIN_PORT = String(internal.address().port);

const app = next({ dev: false, dir: root, hostname, port });
handle = app.getRequestHandler();
await app.prepare();

// Next decodes the path itself and answers a bare 500 when it cannot (`/r/%ED%A0%80`, `/keys/%ff`);
// a NUL in the query reaches the database as text PostgreSQL refuses. Both are refused here,
// before Next, in the API's error envelope (lib/http/errors.ts: invalid_path, invalid_query).
const CROCKFORD = "0123456789abcdefghjkmnpqrstvwxyz";
const requestId = () => `req_${Array.from(randomBytes(20), (b) => CROCKFORD[b & 31]).join("")}`;

/** The path without the query string: queries can hold lookup values and tokens, never logged. */
const pathOf = (url) => {
  const q = url.indexOf("?");
  return (q < 0 ? url : url.slice(0, q)).slice(0, 500);
};

function refusal(url) {
  const pathname = pathOf(url);
  try {
    decodeURIComponent(pathname);
  } catch {
    return ["invalid_path", "The path is not valid percent-encoded UTF-8."];
  }
  if (/%00|\0/i.test(url)) return ["invalid_query", "The URL must not contain the NUL character (%00)."];
  return null;
}

/** The client as the app sees it: the socket, or with TRUST_PROXY=1 the proxy's last X-Forwarded-For entry. */
function clientOf(req) {
  const forwarded = trustProxy ? req.headers["x-forwarded-for"] : undefined;
  const last = typeof forwarded === "string" ? forwarded.split(",").pop()?.trim() : undefined;
  return last || req.socket.remoteAddress || "unknown";
}

/**
 * One access line per request, when its answer is done (or the connection closed first: then
 * 499 if no answer had begun, as nginx logs it — res.statusCode would still say 200).
 */
function logAccess(req, res, startedAt) {
  res.once("close", () => {
    log.info({
      method: req.method,
      path: pathOf(req.url ?? "/"),
      status: res.headersSent || res.writableFinished ? res.statusCode : 499,
      duration_ms: Math.round(Number(process.hrtime.bigint() - startedAt) / 1e4) / 100,
      client: clientOf(req),
      ...(res.writableFinished ? {} : { aborted: true }),
    }, "request");
  });
}

const server = http.createServer((req, res) => {
  const id = requestId();
  runWithRequestId(id, () => serve(req, res, id));
});

function serve(req, res, id) {
  logAccess(req, res, process.hrtime.bigint());
  // A client that closes the connection before its body has arrived makes node emit "aborted"
  // on the request. Nothing else listens for it, so it would reach Next's uncaught-exception
  // handler and be logged as an error; it is the client's doing (the access line says 499).
  req.on("error", (err) => log.info({ err: String(err), path: pathOf(req.url ?? "/") }, "client closed the request"));
  for (const [name, value] of baselineHeaders) res.setHeader(name, value);
  res.setHeader("Request-Id", id); // pages too: the id to quote, and to find the request's lines by
  const refused = refusal(req.url ?? "/");
  if (refused) {
    const [code, message] = refused;
    log.warn({ code, method: req.method, path: pathOf(req.url ?? "/") }, "request refused");
    res.writeHead(400, { "Content-Type": "application/json; charset=utf-8", "Request-Id": id, "Cache-Control": "no-store" });
    res.end(JSON.stringify({ error: { type: "invalid_request_error", code, message, request_id: id } }));
    return;
  }
  // The app answers under this id (lib/http/handler.ts); what a client sent is not it.
  req.headers[REQUEST_ID_HEADER] = id;
  delete req.headers[INTERNAL_HEADER]; // only the internal listener sets it
  if (!trustProxy || !req.headers["x-forwarded-for"]) {
    // No trusted proxy: what the client says about itself counts for nothing.
    req.headers["x-forwarded-for"] = req.socket.remoteAddress ?? "unknown";
    delete req.headers["x-real-ip"];
  }
  handle(req, res).catch((err) => {
    log.error({ err }, "request failed");
    if (!res.headersSent) {
      res.statusCode = 500;
      res.end();
    }
  });
}
server.keepAliveTimeout = 65_000;
server.listen(port, hostname, () => {
  const url = `http://${hostname}:${port}`;
  log.info({ url, trust_proxy: trustProxy }, `listening on ${url}`);
});
for (const sig of ["SIGINT", "SIGTERM"]) {
  process.on(sig, () => {
    server.close();
    internal.close();
    process.exit(0);
  });
}
