import { describe, expect, it } from "vitest";
import { formatUtc, formatUtcDay } from "./dates";

describe("date formatting", () => {
  it("shows an instant in UTC to the minute, from a Date or any ISO string", () => {
    expect(formatUtc(new Date("2026-11-26T00:55:12.345Z"))).toBe("2026-11-26 00:55 UTC");
    expect(formatUtc("2026-11-26T02:55:12+02:00")).toBe("2026-11-26 00:55 UTC");
    expect(formatUtc("2026-11-26T00:55:12.345Z", "seconds")).toBe("2026-11-26 00:55:12 UTC");
  });
  it("shows the UTC day", () => {
    expect(formatUtcDay("2026-11-26T01:00:00+02:00")).toBe("2026-11-25");
  });
  it("shows no instant as a dash and a non-date as it is", () => {
    expect(formatUtc(null)).toBe("—");
    expect(formatUtcDay(undefined)).toBe("—");
    expect(formatUtc("soon")).toBe("soon");
  });
});
