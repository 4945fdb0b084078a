import { generateKeyPairSync, randomUUID } from "node:crypto";
import { beforeAll, describe, expect, it } from "vitest";
import { admin, call } from "../helpers";
import { serverAction, staffSession, type Client } from "../portal-client";

/**
 * Issue 29: every portal server action goes through the JSON input guard
 * (lib/forms/guarded-action.ts; lib/forms/guarded-action.test.ts checks every "use server"
 * export is wrapped). Here, real posts as the browser sends them: a NUL, a lone surrogate or an
 * overlong value gets the form's own error state (200, the message in the answer), and
 * nothing is stored.
 */
const NUL_SAID = "must not contain the NUL character (U+0000)";
const SECRET = `PRSXSECRET-${randomUUID()}`;

let c: Client & { accountId: string };
let key = "";

beforeAll(async () => {
  c = await staffSession(null, "guard");
  key = (await admin("key", "create", "--account", c.accountId, "--env", "sandbox")).key as string;
});

const x = () => (generateKeyPairSync("ed25519").publicKey.export({ format: "jwk" }) as { x: string }).x;

describe("portal actions refuse what the API refuses, with the form's error and nothing stored", () => {
  it("a NUL in a mandate key field: the form's error, no key registered", async () => {
    const r = await serverAction(c, "/developers", ["app/developers/actions.ts", "registerMandateKeyAction"], {
      form: { key_id: `guard-${randomUUID().slice(0, 8)}\u0000`, public_key: x(), environment: "sandbox" },
    });
    expect(r.status).toBe(200);
    expect(r.text).toContain(`The field 'key_id' ${NUL_SAID}`);
    expect((await call("GET", "/api/v1/mandate-keys", { key })).body.data).toEqual([]);
  });

  it("a NUL in a webhook description: the form's error, no destination", async () => {
    const r = await serverAction(c, "/developers", ["app/developers/actions.ts", "createWebhookAction"], {
      form: { url: "https://hooks.example.com/prs", description: "billing\u0000", environment: "sandbox", events: ["record.issued"] },
    });
    expect(r.status).toBe(200);
    expect(r.text).toContain(`The field 'description' ${NUL_SAID}`);
    expect((await call("GET", "/api/v1/webhooks", { key })).body.data).toEqual([]);
  });

  it("a NUL in the account name, and an overlong one: the form's error, the name unchanged", async () => {
    for (const [name, said] of [["Acme\u0000Corp", `The field 'name' ${NUL_SAID}`], ["x".repeat(100_001), "The field 'name' is longer than 100,000 characters."]] as const) {
      const r = await serverAction(c, "/developers", ["app/developers/actions.ts", "setNameAction"], { form: { name } });
      expect(r.status).toBe(200);
      expect(r.text).toContain(said);
      expect(r.text).toContain("Nothing was saved");
    }
    expect((await call("GET", "/api/v1/account", { key })).body.name).toBeNull();
  });

  it("a lone surrogate in an action's plain argument (sign-in link, wallet challenge): the error state, nothing sent or made", async () => {
    // JSON.stringify writes a lone surrogate as the escape \ud800, which the server's JSON parse turns back into one.
    const link = await serverAction({ ...c, cookie: undefined }, "/signin", ["app/signin/actions.ts", "emailSignInLinkAction"], ["a\ud800@example.com"]);
    expect(link.status).toBe(200);
    expect(link.text).toContain("The value sent is not well-formed Unicode (it contains a lone surrogate).");
    const wallet = await serverAction(c, "/proofs", ["app/proofs/actions.ts", "requestWalletChallengeAction"], [
      { environment: "sandbox", address: "0x\udc00", network: "ethereum", claimType: "wallet_ownership" },
    ]);
    expect(wallet.status).toBe(200);
    expect(wallet.text).toContain("The field 'address' is not well-formed Unicode");
    expect(wallet.text).not.toContain("wch_");
  });

  it("the exchange api_secret is never sent back: not on the guard's refusal, not on the pipeline's; no record made", async () => {
    const form = (over: Record<string, string>) => ({
      form: {
        choice: "exchange_verified_trade", environment: "sandbox", idempotency_key: `portal-record-${randomUUID()}`,
        subject: "ETHUSDT short", claim: "Closed an ETHUSDT short at a profit.",
        "evidence.environment": "testnet", "evidence.api_key": "PRSXSECRETkey", "evidence.api_secret": SECRET, "evidence.category": "linear",
        ...over,
      },
    });
    const guarded = await serverAction(c, "/records/new", ["app/records/new/actions.ts", "newRecordAction"], form({ claim: "Closed\u0000" }));
    expect(guarded.status).toBe(200);
    expect(guarded.text).toContain(`The field 'claim' ${NUL_SAID}`);
    expect(guarded.text).not.toContain(SECRET);
    // A refusal of the pipeline itself (no order id): the typed values come back, the secret does not.
    const refused = await serverAction(c, "/records/new", ["app/records/new/actions.ts", "newRecordAction"], form({}));
    expect(refused.status).toBe(200);
    expect(refused.text).toContain("ETHUSDT short");
    expect(refused.text).not.toContain(SECRET);
    expect((await call("GET", "/api/v1/records", { key })).body.data).toEqual([]);
  });
});
