import { randomUUID } from "node:crypto";
import fs from "node:fs";
import net from "node:net";
import path from "node:path";
import { describe, expect, inject, it } from "vitest";
import { baseUrl, newAccount, until } from "../helpers";

/**
 * The server's log (what scripts/serve.mjs and the app inside it write, captured by
 * tests/global-setup.ts): one JSON object a line, one access line per request under the id
 * the answer carries, and no API key or query value in any line.
 */
type Line = Record<string, unknown> & { level: number; time: number; msg: string };

const logFile = () => path.join(inject("dataDir"), "server.log");

function readLog(): { raw: string[]; lines: Line[] } {
  const raw = fs.readFileSync(logFile(), "utf8").split("\n").filter((l) => l !== "");
  return { raw, lines: raw.map((l) => JSON.parse(l) as Line) };
}

async function send(p: string, headers: Record<string, string> = {}) {
  const res = await fetch(baseUrl() + p, { headers });
  const text = await res.text();
  return { status: res.status, id: res.headers.get("request-id") ?? "", text };
}

const accessLines = (lines: Line[], id: string) => lines.filter((l) => l.msg === "request" && l.request_id === id);

describe("the server's log", () => {
  it("is JSON lines, with one access line per request under the answer's Request-Id, and no keys or query values", async () => {
    const { sandboxKey } = await newAccount("logs");
    const unknownKey = `prs_live_${"Q".repeat(32)}`;
    const lookupValue = `logged-${randomUUID().slice(0, 8)}.example.net`;
    const client = "203.0.113.77";

    type Call = { what: string; got: Awaited<ReturnType<typeof send>>; method: string; path: string; status: number; client?: string };
    const calls: Call[] = [
      { what: "a page", got: await send("/"), method: "GET", path: "/", status: 200 },
      { what: "health", got: await send("/api/health"), method: "GET", path: "/api/health", status: 200 },
      {
        what: "a keyed 404",
        got: await send("/api/v1/records/PRS-0000000000000000000Z", { Authorization: `Bearer ${sandboxKey}` }),
        method: "GET", path: "/api/v1/records/PRS-0000000000000000000Z", status: 404,
      },
      {
        what: "an unknown key, and a client's own request id",
        got: await send("/api/v1/records", { Authorization: `Bearer ${unknownKey}`, "X-Request-Id": "req_aaaaaaaaaaaaaaaaaaaa" }),
        method: "GET", path: "/api/v1/records", status: 401,
      },
      {
        what: "a lookup",
        got: await send(`/api/v1/lookup?q=${encodeURIComponent(lookupValue)}`, { "X-Forwarded-For": client }),
        method: "GET", path: "/api/v1/lookup", status: 200, client,
      },
      { what: "a refusal before Next", got: await send("/r/%ED%A0%80?q=x"), method: "GET", path: "/r/%ED%A0%80", status: 400 },
    ];

    for (const c of calls) {
      expect(c.got.status, `${c.what}: ${c.got.text.slice(0, 300)}`).toBe(c.status);
      expect(c.got.id, c.what).toMatch(/^req_[0-9a-hjkmnp-tv-z]{20}$/);
    }
    const ids = calls.map((c) => c.got.id);
    expect(new Set(ids).size).toBe(calls.length);
    expect(ids[3]).not.toBe("req_aaaaaaaaaaaaaaaaaaaa"); // the server's id, not the client's
    expect(JSON.parse(calls[2]!.got.text).error.request_id).toBe(ids[2]); // error bodies name the same id
    expect(JSON.parse(calls[5]!.got.text).error.request_id).toBe(ids[5]);

    // The access line is written when the answer is done, which may be just after the client has it.
    await until("the access lines", () => ids.every((id) => accessLines(readLog().lines, id).length > 0));
    const { raw, lines } = readLog();
    for (const l of lines) {
      expect(typeof l.level).toBe("number");
      expect(typeof l.time).toBe("number");
      expect(typeof l.msg).toBe("string");
    }
    for (const c of calls) {
      const access = accessLines(lines, c.got.id);
      expect(access, c.what).toHaveLength(1);
      expect(access[0], c.what).toMatchObject({ method: c.method, path: c.path, status: c.status, client: c.client ?? "127.0.0.1" });
      expect(typeof access[0]!.duration_ms).toBe("number");
    }
    const refusal = lines.find((l) => l.request_id === ids[5] && l.msg === "request refused");
    expect(refusal).toMatchObject({ code: "invalid_path", path: "/r/%ED%A0%80" });

    for (const s of [sandboxKey, unknownKey, lookupValue, encodeURIComponent(lookupValue)]) {
      expect(raw.filter((l) => l.includes(s)), s).toEqual([]);
    }
  });

  it("logs a client that went away mid-body as 499 at info, not as an unhandled error", async () => {
    const { sandboxKey } = await newAccount("logs-abort");
    const since = Date.now();
    const { hostname, port } = new URL(baseUrl());
    // A create whose body stops halfway: the headers promise 100,000 bytes, 20 arrive, then the connection closes.
    // The body is sent once the server has taken the request and waits for it (its "100 Continue").
    await new Promise<void>((resolve, reject) => {
      const socket = net.connect(Number(port), hostname, () => {
        socket.write(
          `POST /api/v1/records HTTP/1.1\r\nHost: ${hostname}:${port}\r\nAuthorization: Bearer ${sandboxKey}\r\n` +
            `Content-Type: application/json\r\nContent-Length: 100000\r\nExpect: 100-continue\r\n\r\n`,
        );
      });
      socket.once("data", (d) => {
        if (!d.toString("latin1").startsWith("HTTP/1.1 100 Continue\r\n")) return reject(new Error(`expected 100 Continue, got ${d.toString("latin1").slice(0, 80)}`));
        socket.write('{"claim_type": "comp', () => socket.destroy());
      });
      socket.on("close", () => resolve());
      socket.on("error", reject);
    });
    const access = await until("the cut-off request's access line", () =>
      readLog().lines.find((l) => l.msg === "request" && l.time >= since && l.method === "POST" && l.path === "/api/v1/records" && l.status === 499),
    );
    expect(access).toMatchObject({ aborted: true, client: "127.0.0.1" });
    // The app's own word on the hang-up (not the server's line, which names the path), or an error: then read everything since.
    await until("the app's own report of the hang-up", () =>
      readLog().lines.find((l) => l.time >= since && (l.level >= 50 || (l.msg === "client closed the request" && l.path === undefined))),
    );
    const after = readLog().lines.filter((l) => l.time >= since);
    expect(after.filter((l) => l.msg === "client closed the request").length).toBeGreaterThan(0);
    expect(after.filter((l) => l.level >= 50)).toEqual([]); // no error line: nothing went wrong on this side
  });

  it("says at start where it listens, which database and which signing key, as fields", () => {
    const { lines } = readLog();
    expect(lines.find((l) => l.msg === `listening on ${baseUrl()}`)).toMatchObject({ url: baseUrl() });
    const started = lines.find((l) => l.msg.startsWith("started:"));
    expect(started).toMatchObject({ database: process.env.DATABASE_URL ? "postgres" : "pglite", public_base_url: baseUrl() });
    expect(started!.signing_kid).toEqual(expect.any(String));
    expect(started!.request_id).toBeUndefined();
  });
});
