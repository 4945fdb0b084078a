// The embedded database off the request thread: lib/db/client.ts starts this file in a
// worker_threads Worker of the server process. It opens PGlite on the data folder and serves
// it over the PostgreSQL wire protocol (@electric-sql/pglite-socket) on a unix socket in a
// folder only this user can open; the app then talks to it with the same postgres-js driver as in
// DATABASE_URL mode. A thread, not a process: it ends with the server however that ends.
import fs from "node:fs";
import { parentPort, workerData } from "node:worker_threads";
import { PGlite } from "@electric-sql/pglite";
import { pg_trgm } from "@electric-sql/pglite/contrib/pg_trgm";
import { PGLiteSocketServer } from "@electric-sql/pglite-socket";
import { getLogger, routeConsole } from "../lib/log/json-log.mjs";

routeConsole(getLogger(process.env.LOG_LEVEL)); // what PGlite prints comes out as JSON lines too

const { dir, socketPath } = workerData;
// Same durability as the in-process mode: relaxedDurability only skips awaiting a syncToFs
// that is a no-op on NodeFS (writes go straight to the data folder).
// pg_trgm: the directory's search index (migration 0028); lib/db/client.ts loads it too.
const db = await PGlite.create(dir, { relaxedDurability: true, extensions: { pg_trgm } });
fs.rmSync(socketPath, { force: true }); // left behind by a killed server

// One client's extended-protocol exchange (Parse, Bind, Describe, Execute, Flush … up to its
// Sync) must reach the single session without another client's messages in between: a
// second client's Bind or simple Query there replaces the unnamed portal or statement the
// first is about to execute ("portal "" does not exist"). pglite-socket already keeps serving
// the same client while a transaction is open; counting an unfinished exchange as one makes
// each exchange atomic too. Sync, a simple Query, Terminate, the startup message and a
// password end an exchange (a client that connects and idles must not hold the session).
const ENDS_EXCHANGE = new Set([0x53 /* S */, 0x51 /* Q */, 0x58 /* X */, 0x00 /* startup */, 0x70 /* p */]);
let exchangeOpen = false;
const execRaw = db.execProtocolRawStream.bind(db);
db.execProtocolRawStream = async (message, options) => {
  try {
    return await execRaw(message, options);
  } finally {
    exchangeOpen = !ENDS_EXCHANGE.has(message[0]);
  }
};
const inTransaction = db.isInTransaction.bind(db);
db.isInTransaction = () => exchangeOpen || inTransaction();
// PGlite has one session: pglite-socket queues the clients' messages onto it and, inside a
// transaction or (see above) an exchange, serves only the client that opened it. The app uses
// one connection; the spare slots cover a reconnect overlapping the old socket's close and
// the tests' direct access (tests/server-db.ts).
const server = new PGLiteSocketServer({ db, path: socketPath, maxConnections: 3 });
// The socket's folder is private to this user (0700, made by client.ts): PGlite has no auth.
await server.start();
fs.chmodSync(socketPath, 0o600);
parentPort.on("message", async (msg) => {
  if (msg !== "close") return;
  try {
    await server.stop();
    await db.close();
  } finally {
    fs.rmSync(socketPath, { force: true });
    parentPort.postMessage("closed");
  }
});
parentPort.postMessage("ready");
