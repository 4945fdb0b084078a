import { randomUUID } from "node:crypto";
import { expect, test } from "@playwright/test";
import { generatePrivateKey, privateKeyToAccount } from "viem/accounts";
import { writeVaultInfo } from "../tests/vault-info";
import { admin, baseURL, collectBrowserErrors, hydrated, setDns, shotBoth, signedUpPerson as person, liveCustomerAccount } from "./helpers";

/**
 * dex_control, domainless (spec 2.6 rule 5), end to end: the customer signs a dex_control
 * wallet challenge and submits (202); a reviewer sees the post to open and the token it must
 * carry, ticks the post's author and token, and approves; the certificate says in plain words
 * what was established and what was not, and the signed status carries mode and handle.
 */
/** A confirmed live customer on the growth plan; calls the API with its live key. */
async function liveCustomer(tag: string) {
  const key = (await liveCustomerAccount(tag)).liveKey;
  return async (method: string, p: string, body?: unknown) => {
    const r = await fetch(`${baseURL}${p}`, {
      method, headers: { Authorization: `Bearer ${key}`, "Content-Type": "application/json", "Idempotency-Key": randomUUID() },
      body: body ? JSON.stringify(body) : undefined,
    });
    return { status: r.status, body: await r.json() };
  };
}

test("a domainless wallet owner: submitted by API, approved in the console, certified in plain words", async ({ browser }) => {
  test.setTimeout(120_000);
  const api = await liveCustomer("dex");
  const wallet = privateKeyToAccount(generatePrivateKey());
  const ch = (await api("POST", "/api/v1/wallet-challenges", { address: wallet.address, network: "ethereum", claim_type: "dex_control" })).body;
  const token = /Nonce: (\S+)/.exec(ch.message)![1]!;
  const sub = await api("POST", "/api/v1/records", {
    subject: wallet.address, claim_type: "dex_control", subtype: "wallet_owner", visibility: "public",
    claim: `Acme controls exchange wallet ${wallet.address} and @acmetrade.`,
    evidence: {
      challenge_id: ch.id, signature: await wallet.signMessage({ message: ch.message }), social_handle: "@acmetrade",
      mode: "domainless", social_post_url: "https://social.example/acmetrade/status/42",
    },
  });
  expect(sub.status, JSON.stringify(sub.body)).toBe(202);
  const id = sub.body.verification_id as string;

  const reviewer = await person(browser, "dex-rev");
  await admin("role", "grant", "--account", reviewer.accountId, "--role", "reviewer");
  const rp = reviewer.page;
  const errors = await collectBrowserErrors(rp);
  await rp.goto(`/review/${id}`);
  await expect(rp.getByTestId("evidence")).toContainText("wallet owner (domainless)");
  await expect(rp.getByTestId("dex-token")).toHaveText(token);
  await expect(rp.getByTestId("evidence-age")).toContainText("0 h ago; must be under 24 h at approval");
  await expect(rp.getByRole("link", { name: "https://social.example/acmetrade/status/42" })).toHaveAttribute("rel", /noopener/);
  const approve = rp.getByTestId("approve-form");
  await expect(approve).toContainText("The post at social_post_url is by the social account named");
  await expect(approve).toContainText("The post's text carries this submission's challenge token, exactly.");
  await shotBoth(rp, "review-dex-control");
  await hydrated(approve.getByRole("button", { name: "Approve and issue" }));
  await rp.getByTestId("check-post_author").check();
  await rp.getByTestId("check-post_token").check();
  await approve.getByRole("button", { name: "Approve and issue" }).click();
  await expect(rp.getByTestId("decided")).toContainText("active");

  const status = await api("GET", `/api/v1/records/${id}/status`);
  expect(status.body).toMatchObject({ status: "active", evidence_level: "evidence_verified", verified: true, evidence: { mode: "domainless", social_handle: "@acmetrade" } });
  expect(Date.parse(status.body.expires_at) - Date.parse(status.body.issued_at)).toBe(90 * 86_400_000);

  const visitor = await browser.newContext({ baseURL });
  const cert = await visitor.newPage();
  await cert.goto(`/r/${id}`);
  await expect(cert.getByTestId("proof-scope")).toContainText("of the social account @acmetrade (its post carrying the challenge token), confirmed by a reviewer");
  await expect(cert.getByTestId("proof-scope")).toContainText("Who is behind the accounts (identity), trading performance, or the safety of any deposit");
  await expect(cert.getByTestId("proof-scope")).toContainText("No snapshot");
  await shotBoth(cert, "certificate-dex-control");
  expect(errors).toEqual([]);
  await visitor.close();
  await reviewer.ctx.close();
});

test("a builder: the reviewer approves in the console, the certificate shows the approved maximum fee and never the named wallet", async ({ browser }) => {
  test.setTimeout(120_000);
  const api = await liveCustomer("dexb");
  const domain = `builder-${randomUUID().slice(0, 8)}.example.com`;
  const dc = (await api("POST", "/api/v1/domain-challenges", { domain })).body;
  setDns(dc.txt_name, [dc.txt_value]);
  const dom = await api("POST", "/api/v1/records", { subject: domain, claim_type: "domain_ownership", claim: `Controls ${domain}.`, visibility: "public", evidence: { challenge_id: dc.id } });
  expect(dom.status).toBe(201);
  const builder = privateKeyToAccount(generatePrivateKey());
  const user = privateKeyToAccount(generatePrivateKey()).address;
  writeVaultInfo(process.env.PRS_E2E_VAULT_INFO!, { builderFees: { [`${user.toLowerCase()}|${builder.address.toLowerCase()}`]: 50 } });
  const ch = (await api("POST", "/api/v1/wallet-challenges", { address: builder.address, network: "ethereum", claim_type: "dex_control" })).body;
  const sub = await api("POST", "/api/v1/records", {
    subject: builder.address, claim_type: "dex_control", subtype: "builder", visibility: "public",
    claim: `Acme runs builder ${builder.address} at ${domain}.`,
    evidence: { challenge_id: ch.id, signature: await builder.signMessage({ message: ch.message }), social_handle: "@acmebuilds", domain, domain_record: dom.body.verification_id, user_address: user },
  });
  expect(sub.status, JSON.stringify(sub.body)).toBe(202);
  const id = sub.body.verification_id as string;

  const reviewer = await person(browser, "dexb-rev");
  await admin("role", "grant", "--account", reviewer.accountId, "--role", "reviewer");
  const rp = reviewer.page;
  await rp.goto(`/review/${id}`);
  await expect(rp.getByTestId("evidence")).toContainText(domain);
  await expect(rp.getByTestId("evidence")).not.toContainText(user);
  const approve = rp.getByTestId("approve-form");
  await hydrated(approve.getByRole("button", { name: "Approve and issue" }));
  await rp.getByTestId("check-social_account").check();
  await rp.getByTestId("check-builder_front_end").check();
  await approve.getByRole("button", { name: "Approve and issue" }).click();
  await expect(rp.getByTestId("decided")).toContainText("active");

  const visitor = await browser.newContext({ baseURL });
  const cert = await visitor.newPage();
  await cert.goto(`/r/${id}`);
  await expect(cert.getByTestId("proof-scope")).toContainText("had approved a maximum builder fee of 0.05% per order — an approval, not the fee charged");
  expect((await cert.content()).toLowerCase()).not.toContain(user.toLowerCase().slice(2));
  await shotBoth(cert, "certificate-dex-builder");
  await visitor.close();
  await reviewer.ctx.close();
});
