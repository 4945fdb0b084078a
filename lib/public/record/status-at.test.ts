import { describe, expect, it } from "vitest";
import { ApiError } from "@/lib/http/errors";
import { statusInstantFrom } from "./status-at";

const NOW = Date.parse("2026-06-01T12:00:00Z");
const ask = (qs: string) => statusInstantFrom(new URLSearchParams(qs), NOW);
const refusal = (qs: string) => {
  try {
    ask(qs);
  } catch (e) {
    if (e instanceof ApiError) return { status: e.status, code: e.code, param: e.param, message: e.message };
    throw e;
  }
  throw new Error(`no refusal for ${qs}`);
};

describe("statusInstantFrom (?at=)", () => {
  it("is undefined without `at`, whatever else the query carries", () => {
    expect(ask("")).toBeUndefined();
    expect(ask("_=123&AT=2026-01-01T00:00:00Z")).toBeUndefined();
  });

  it("reads RFC 3339 instants with an offset or Z, fractions and all", () => {
    expect(ask("at=2026-01-31T12:00:00Z")?.toISOString()).toBe("2026-01-31T12:00:00.000Z");
    expect(ask("at=2026-01-31T14:00:00%2B02:00")?.toISOString()).toBe("2026-01-31T12:00:00.000Z");
    expect(ask("at=2026-01-31T12:00:00.123456Z")?.toISOString()).toBe("2026-01-31T12:00:00.123Z");
    expect(ask("at=2026-06-01T12:00:00Z")?.getTime()).toBe(NOW); // now itself is not the future
  });

  it.each([
    "at=yesterday", "at=2026-13-01T00:00:00Z", "at=2026-02-30T00:00:00Z", "at=", "at=2026-01-31", "at=2026-01-31T12:00:00",
    "at=2026-01-31T24:00:00Z", "at=1767225600", "at=%00", "at=2026-01-31T12:00:00%2B0200",
  ])("%s is 422 invalid_format naming the format", (qs) => {
    expect(refusal(qs)).toMatchObject({ status: 422, code: "invalid_format", param: "at", message: expect.stringContaining("RFC 3339") });
  });

  it("a repeated `at` is 422 invalid_format, even when both agree", () => {
    expect(refusal("at=2026-01-01T00:00:00Z&at=2026-01-01T00:00:00Z")).toMatchObject({ status: 422, code: "invalid_format", param: "at", message: expect.stringContaining("once") });
  });

  it("an instant after now is 422 invalid_value", () => {
    expect(refusal("at=2026-06-01T12:00:00.001Z")).toMatchObject({ status: 422, code: "invalid_value", param: "at", message: expect.stringContaining("future") });
    expect(refusal("at=9999-12-31T23:59:59Z").code).toBe("invalid_value");
  });
});
