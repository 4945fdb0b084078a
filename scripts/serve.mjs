// The production server: Next's request handler behind node:http, so the client address
// the app sees (X-Forwarded-For, read by the sign-in and sign-up rate limits) is the
// socket's unless TRUST_PROXY=1 says a proxy in front sets it. `next start` would keep a
// client-supplied X-Forwarded-For as it is, letting anyone pick their own address.
// Usage: node scripts/serve.mjs -p PORT -H HOST   (npm start runs it after building)
import http from "node:http";
import path from "node:path";

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

const app = next({ dev: false, dir: root, hostname, port });
const handle = app.getRequestHandler();
await app.prepare();

const server = http.createServer((req, res) => {
  if (!trustProxy || !req.headers["x-forwarded-for"]) {
    // No trusted proxy: what the client says about itself counts for nothing.
    req.headers["x-forwarded-for"] = req.socket.remoteAddress ?? "unknown";
    delete req.headers["x-real-ip"];
  }
  handle(req, res).catch((err) => {
    console.error("[prs] request failed", err);
    if (!res.headersSent) {
      res.statusCode = 500;
      res.end();
    }
  });
});
server.keepAliveTimeout = 65_000;
server.listen(port, hostname, () => {
  console.log(`[prs] listening on http://${hostname}:${port}${trustProxy ? " (trusting X-Forwarded-For from a proxy)" : ""}`);
});
for (const sig of ["SIGINT", "SIGTERM"]) {
  process.on(sig, () => {
    server.close();
    process.exit(0);
  });
}
