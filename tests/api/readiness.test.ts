import fs from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { call } from "../helpers";

/** GET /api/health/ready: ready when the database answers, every shipped migration is applied and a signing key is loaded. */
describe("readiness", () => {
  it("reports each part and is 200 on a started server", async () => {
    const expected = JSON.parse(fs.readFileSync(path.join(process.cwd(), "drizzle", "migrations", "meta", "_journal.json"), "utf8")).entries.length;
    const r = await call("GET", "/api/health/ready");
    expect(r.status).toBe(200);
    expect(r.body).toEqual({ status: "ok", database: "ok", migrations: { status: "ok", applied: expected, expected }, signing_key: "ok", transparency_log: "ok" });
    expect(r.headers.get("cache-control")).toBe("no-store");
  });
});
