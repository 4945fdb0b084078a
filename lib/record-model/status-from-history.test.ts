import { describe, expect, it } from "vitest";
import { issuedStatusAt, type StatusEntry } from "./status-from-history";

const t = (s: string) => new Date(`2026-03-01T${s}Z`);
const history: StatusEntry[] = [
  { status: "active", at: t("10:00:00") },
  { status: "suspended", at: t("11:00:00") },
  { status: "active", at: t("12:00:00") },
  { status: "revoked", at: t("13:00:00") },
];
const row = { status: "revoked" as const, statusChangedAt: t("13:00:00"), expiresAt: t("23:00:00") };
const at = (s: string) => issuedStatusAt(row, history, t(s).getTime());

describe("issuedStatusAt", () => {
  it("is the last entry at or before the instant", () => {
    expect(at("10:00:00")).toBe("active");
    expect(at("10:59:59.999")).toBe("active");
    expect(at("11:00:00")).toBe("suspended");
    expect(at("12:30:00")).toBe("active");
    expect(at("13:00:00")).toBe("revoked");
  });

  it("is null before the first entry (not issued yet), and while only a submission existed", () => {
    expect(at("09:59:59.999")).toBeNull();
    const reviewed: StatusEntry[] = [{ status: "pending_review", at: t("08:00:00") }, { status: "active", at: t("09:00:00") }];
    expect(issuedStatusAt({ ...row, status: "active" }, reviewed, t("08:30:00").getTime())).toBeNull();
    expect(issuedStatusAt({ ...row, status: "active" }, reviewed, t("09:00:00").getTime())).toBe("active");
  });

  it("takes the entry with the latest time at or before the instant, not the last written (the sweep writes expires_at, in the past)", async () => {
    const written: StatusEntry[] = [
      { status: "active", at: t("10:00:00") },
      { status: "suspended", at: t("12:00:00") },
      { status: "revoked", at: t("11:00:00") }, // written after, about an earlier instant
      { status: "active", at: t("12:00:00") }, // same instant as the suspension, written later: it wins
    ];
    const r = { status: "active" as const, statusChangedAt: t("12:00:00"), expiresAt: null };
    expect(issuedStatusAt(r, written, t("10:30:00").getTime())).toBe("active");
    expect(issuedStatusAt(r, written, t("11:30:00").getTime())).toBe("revoked");
    expect(issuedStatusAt(r, written, t("12:00:00").getTime())).toBe("active");
  });

  it("reads an active or suspended record as expired once its expires_at has passed, whatever the sweep wrote", () => {
    const short = { status: "active" as const, statusChangedAt: t("10:00:00"), expiresAt: t("10:30:00") };
    expect(issuedStatusAt(short, history.slice(0, 1), t("10:29:59").getTime())).toBe("active");
    expect(issuedStatusAt(short, history.slice(0, 1), t("10:30:00").getTime())).toBe("expired");
    expect(issuedStatusAt(short, history, t("11:30:00").getTime())).toBe("expired");
    // A revoked record stays revoked past its expiry.
    expect(issuedStatusAt({ ...row, expiresAt: t("13:30:00") }, history, t("14:00:00").getTime())).toBe("revoked");
  });
});
