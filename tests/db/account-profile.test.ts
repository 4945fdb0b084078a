import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { randomBytes, randomUUID } from "node:crypto";
import { afterAll, beforeAll, describe, expect, it } from "vitest";

/*
 * The account profile names at most MAX_VERIFIED_DOMAINS verified domains, the first in
 * name order, whatever the number an account proved (an account with a million domain
 * records must not make every answer about it load them all), and only live active ones.
 */
const dir = fs.mkdtempSync(path.join(os.tmpdir(), "prs-unit-"));
process.env.DATA_DIR = dir;

const { getDb, closeDb } = await import("@/lib/db/client");
const { createAccount } = await import("@/lib/accounts/create-account");
const { createApiKey } = await import("@/lib/accounts/create-api-key");
const { setPlan } = await import("@/lib/accounts/manage-account");
const { authenticateApiKey } = await import("@/lib/accounts/authenticate-api-key");
const { registerClaimType } = await import("@/lib/claims/registry");
const { createRecord } = await import("@/lib/records/create-record");
const { loadAccountProfiles, MAX_VERIFIED_DOMAINS } = await import("@/lib/accounts/account-profile");

const TYPE = "test_domain_proof";
registerClaimType({
  type: TYPE,
  docs: { describe: "test only", errors: [], example: { summary: "test", value: {} } },
  validate: () => null,
  provesAccountDomain: true,
  async check(input) {
    return { kind: "issue", evidenceLevel: "source_verified", publicEvidence: input.evidence ?? {} };
  },
});

type Db = Awaited<ReturnType<typeof getDb>>;
let db: Db;
beforeAll(async () => {
  db = await getDb();
});
afterAll(async () => {
  await closeDb();
  fs.rmSync(dir, { recursive: true, force: true });
});

async function customer(env: "sandbox" | "live") {
  const a = await createAccount(db, { email: `p-${randomBytes(4).toString("hex")}@example.test`, emailConfirmed: true });
  if (env === "sandbox") return { accountId: a.accountId, auth: await authenticateApiKey(db, `Bearer ${a.sandboxKey}`) };
  await setPlan(db, a.accountId, "growth");
  const { key } = await createApiKey(db, a.accountId, "live");
  return { accountId: a.accountId, auth: await authenticateApiKey(db, `Bearer ${key}`) };
}
type Auth = Awaited<ReturnType<typeof customer>>["auth"];
const prove = async (auth: Auth, subject: string) => {
  const res = await createRecord(db, auth, { claim: "x", visibility: "public", claim_type: TYPE, subject } as never, randomUUID());
  expect(res.status).toBe(201);
};

describe("the account profile's verified domains", () => {
  it("are at most MAX_VERIFIED_DOMAINS, the first in name order, live only", async () => {
    const live = await customer("live");
    const t = randomBytes(3).toString("hex");
    const names = Array.from({ length: MAX_VERIFIED_DOMAINS + 5 }, (_, i) => `d${String(i).padStart(2, "0")}-${t}.example.com`);
    for (const n of [...names].reverse()) await prove(live.auth, n);
    const sandbox = await customer("sandbox");
    await prove(sandbox.auth, `sandbox-${t}.example.com`);

    const profiles = await loadAccountProfiles(db, [live.accountId, sandbox.accountId]);
    expect(profiles.get(live.accountId)?.verified_domains).toEqual(names.slice(0, MAX_VERIFIED_DOMAINS));
    expect(profiles.get(sandbox.accountId)?.verified_domains).toEqual([]);
  });
});
