import { eq } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { dataLayerTest, uniqueEmail } from "./setup";

const { db } = await dataLayerTest();
const { accounts, revokedSessions } = await import("@/drizzle/schema");
const { createAccount } = await import("@/lib/accounts/create-account");
const { hashPassword } = await import("@/lib/auth/password");
const { endAllSessions, replacePassword, upgradePasswordHash } = await import("@/lib/auth/store-password");
const revocation = await import("@/lib/auth/session-revocation");

const accountRow = async (id: string) => (await db.select().from(accounts).where(eq(accounts.id, id)))[0]!;
const newAccount = async (passwordHash?: string) =>
  (await createAccount(db, { email: uniqueEmail("s"), ...(passwordHash ? { passwordHash } : {}) })).accountId;

describe("session epoch", () => {
  it("moves when the password is replaced or voided and on 'sign out everywhere', not when a hash is upgraded", async () => {
    const first = await hashPassword("first password 1");
    const id = await newAccount(first);
    expect((await accountRow(id)).sessionEpoch).toBe(0);

    const upgraded = `${first}x`; // any other stored value stands for the re-made hash here
    expect(await upgradePasswordHash(db, id, first, upgraded)).toBe(true);
    expect(await accountRow(id)).toMatchObject({ passwordHash: upgraded, sessionEpoch: 0 });

    await replacePassword(db, id, await hashPassword("second password 2"));
    expect((await accountRow(id)).sessionEpoch).toBe(1);
    await replacePassword(db, id, null);
    expect(await accountRow(id)).toMatchObject({ passwordHash: null, sessionEpoch: 2 });
    await endAllSessions(db, id);
    expect((await accountRow(id)).sessionEpoch).toBe(3);
  });

  it("an upgrade loses to a password changed since the old hash was read", async () => {
    const old = await hashPassword("first password 1");
    const id = await newAccount(old);
    const replaced = await hashPassword("a new password 2");
    await replacePassword(db, id, replaced);
    expect(await upgradePasswordHash(db, id, old, `${old}x`)).toBe(false);
    expect((await accountRow(id)).passwordHash).toBe(replaced);
  });
});

describe("revoked sessions", () => {
  it("a signed-out session, one from an older epoch and one of no account have ended; a missing or malformed id counts as ended", async () => {
    const accountId = await newAccount(await hashPassword("first password 1"));
    const session = { sid: revocation.newSessionId(), accountId, epoch: 0 };
    const other = { ...session, sid: revocation.newSessionId() };
    expect(session.sid).toMatch(/^[A-Za-z0-9_-]{22}$/);
    expect(await revocation.isSessionEnded(db, session)).toBe(false);
    await revocation.revokeSession(db, session.sid);
    await revocation.revokeSession(db, session.sid); // twice is harmless
    expect(await revocation.isSessionEnded(db, session)).toBe(true);
    expect(await revocation.isSessionEnded(db, other)).toBe(false);
    for (const sid of [undefined, null, 5, "", "short", `${other.sid}'--`]) expect(await revocation.isSessionEnded(db, { ...other, sid })).toBe(true);
    expect(await revocation.isSessionEnded(db, { ...other, accountId: "acct_nobody" })).toBe(true);
    expect(await revocation.isSessionEnded(db, { ...other, epoch: "0" })).toBe(true);
    await endAllSessions(db, accountId);
    expect(await revocation.isSessionEnded(db, other)).toBe(true);
    expect(await revocation.isSessionEnded(db, { ...other, epoch: 1 })).toBe(false);
  });

  it("is kept until no copy of the cookie can be valid (a session lifetime after sign-out), then purged", async () => {
    // In the future: the server's own sweep (sharing this database) purges by the real clock, and
    // would take rows of a fixed past date away in the middle of the test (it did, on 2026-11-26).
    const now = new Date(Date.now() + 400 * 86_400_000);
    const accountId = await newAccount();
    const sid = revocation.newSessionId();
    await revocation.revokeSession(db, sid, now);
    const [row] = await db.select().from(revokedSessions).where(eq(revokedSessions.sid, sid));
    expect(row!.expiresAt.getTime()).toBe(now.getTime() + revocation.SESSION_MAX_AGE_SECONDS * 1000);

    const keep = revocation.newSessionId();
    await revocation.revokeSession(db, keep, new Date(now.getTime() + 3600_000));
    expect(await revocation.purgeRevokedSessions(db, new Date(row!.expiresAt.getTime() + 1))).toBeGreaterThanOrEqual(1);
    expect(await revocation.isSessionEnded(db, { sid, accountId, epoch: 0 })).toBe(false); // row gone
    expect(await revocation.isSessionEnded(db, { sid: keep, accountId, epoch: 0 })).toBe(true);
  });
});
