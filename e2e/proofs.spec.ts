import { secp256k1 } from "@noble/curves/secp256k1.js";
import { keccak_256 } from "@noble/hashes/sha3.js";
import { expect, test, type Page } from "@playwright/test";
import { getAddress, hexToBytes, hexToString, verifyMessage, type Hex } from "viem";
import { generatePrivateKey, privateKeyToAccount } from "viem/accounts";
import { installTestWallet } from "./test-wallet";
import { admin, baseURL, collectBrowserErrors, confirmEmail, freshClientAddress, hydrated, sandboxKeyOf, setDns, shot, shotBoth, signIn, signUp } from "./helpers";

// Clipboard access for the Copy buttons. Each test signs in from a client address of its
// own: no test spends another's rate-limit window.
test.use({ baseURL, permissions: ["clipboard-read", "clipboard-write"] });

const uniq = () => `e2e${Date.now().toString(36)}${Math.random().toString(36).slice(2, 6)}`;

/** A confirmed, signed-in account on /proofs; returns its sandbox key (for reading records back). */
async function signedInOnProofs(page: Page): Promise<string> {
  await page.context().setExtraHTTPHeaders({ "x-forwarded-for": freshClientAddress() });
  const email = `${uniq()}@example.com`;
  await signUp(page, email);
  await confirmEmail(page, email); // revokes the sign-up's key: a new one below
  await signIn(page, email, "/proofs");
  const key = await sandboxKeyOf(page);
  await page.goto("/proofs");
  return key;
}

const getJson = async (path: string, key?: string) => {
  const r = await fetch(`${baseURL}${path}`, { headers: key ? { Authorization: `Bearer ${key}` } : {} });
  return { status: r.status, body: await r.json() };
};

/** Nothing on the page asks for a key or a phrase. */
async function expectNoSecretFields(page: Page) {
  const fields = await page.locator("input, textarea").evaluateAll((els) =>
    els.map((e) => {
      const el = e as HTMLInputElement;
      return `${el.name} ${el.placeholder} ${Array.from(el.labels ?? []).map((l) => l.textContent).join(" ")}`;
    }));
  for (const f of fields) expect(f).not.toMatch(/private|secret|phrase|mnemonic|seed/i);
}

test("domain proof: challenge, copy, not found yet, publish, check, certificate; DNS down → review", async ({ page }) => {
  const errors = await collectBrowserErrors(page);
  const sandboxKey = await signedInOnProofs(page);
  const domain = `${uniq()}.example.com`;

  // The portal navigation links here; the page works in sandbox for an account without a plan.
  await page.goto("/records");
  await page.getByRole("link", { name: "Proofs", exact: true }).click();
  await expect(page).toHaveURL(/\/proofs$/);
  await expect(page.getByTestId("environment")).toContainText("sandbox");
  await expect(page.getByTestId("environment").getByRole("link", { name: "live" })).toHaveCount(0);
  await expect(page.getByTestId("environment-note")).toContainText("Live proofs need a plan");
  // No injected wallet in this browser: the wallet part says what is needed.
  await expect(page.getByTestId("no-wallet")).toContainText("browser wallet extension such as MetaMask");
  await expectNoSecretFields(page);
  await shotBoth(page, "proofs");

  // A bad domain: a clear message under the field, no 500; the domain typed stays.
  const request = page.getByTestId("domain-request");
  await hydrated(request.getByRole("button", { name: "Request challenge" }));
  await request.getByLabel("Domain").fill("localhost");
  await request.getByRole("button", { name: "Request challenge" }).click();
  await expect(request.getByRole("alert")).toContainText("localhost");
  await expect(request.getByLabel("Domain")).toHaveValue("localhost");
  await expect(request.getByLabel("Domain")).toHaveAttribute("aria-invalid", "true");
  await shotBoth(page, "proofs-domain-refused");

  // A pasted web address is not refused: its host is taken, and the page says so.
  await request.getByLabel("Domain").fill(`https://www.${domain}/listing/1?x=y`);
  await request.getByRole("button", { name: "Request challenge" }).click();
  const box = page.getByTestId("domain-challenge");
  await expect(box.getByTestId("took-host")).toContainText(`we took its host, www.${domain}`);
  await expect(box.getByTestId("took-host")).toContainText(`does not cover ${domain}`);
  await expect(box.getByTestId("txt-name")).toHaveText(`_prs-challenge.www.${domain}`);
  await shotBoth(page, "proofs-domain-from-url");
  // The rest starts from the page as a first visit shows it (the refused domain typed above included).
  await page.goto("/proofs");
  await hydrated(request.getByRole("button", { name: "Request challenge" }));
  await request.getByLabel("Domain").fill("localhost");
  await request.getByRole("button", { name: "Request challenge" }).click();
  await expect(request.getByRole("alert")).toContainText("localhost");

  await request.getByLabel("Domain").fill(`  ${domain.toUpperCase()}. `);
  await request.getByRole("button", { name: "Request challenge" }).click();
  await expect(page).toHaveURL(/\/proofs\?environment=sandbox&challenge=dch_[A-Za-z0-9]{20}(#domain)?$/);
  await expect(box).toBeVisible();
  await expect(box.getByTestId("took-host")).toHaveCount(0);
  const challengeId = (await box.getAttribute("data-id"))!;
  const txtName = (await box.getByTestId("txt-name").innerText()).trim();
  const txtValue = (await box.getByTestId("txt-value").innerText()).trim();
  expect(txtName).toBe(`_prs-challenge.${domain}`);
  expect(txtValue).toMatch(/^prs-verification=[A-Za-z0-9_-]{32}$/);
  const expires = Date.parse((await box.getByTestId("challenge-expires").innerText()).replace(" UTC", "Z").replace(" ", "T"));
  expect(expires - Date.now()).toBeGreaterThan(58 * 60_000);
  expect(expires - Date.now()).toBeLessThanOrEqual(60 * 60_000);

  // Copy: the button says so, and the clipboard holds exactly the value.
  await box.getByRole("button", { name: "Copy TXT value" }).click();
  await expect(box.getByRole("button", { name: "Copy TXT value" })).toHaveText("Copied");
  expect(await page.evaluate(() => navigator.clipboard.readText())).toBe(txtValue);
  await box.getByRole("button", { name: "Copy TXT name" }).click();
  await expect(box.getByRole("button", { name: "Copy TXT name" })).toHaveText("Copied");
  expect(await page.evaluate(() => navigator.clipboard.readText())).toBe(txtName);
  // The new challenge starts a fresh request form: the earlier refusal is gone.
  await expect(request.getByRole("alert")).toHaveCount(0);
  await expect(request.getByLabel("Domain")).toHaveValue("");
  await shotBoth(page, "proofs-domain-challenge");

  // Not published yet: said plainly, and the challenge stays usable.
  const check = box.getByRole("button", { name: "Check now" });
  await check.click();
  await expect(box.getByTestId("proof-not-found")).toContainText(`TXT record not found yet at ${txtName}`);
  await expect(box.getByTestId("proof-not-found")).toContainText("check again");
  await shot(page, "proofs-domain-not-found");
  // A reload keeps the challenge (its id is in the address).
  await page.reload();
  await expect(box.getByTestId("txt-value")).toHaveText(txtValue);

  // A TXT record with another value: still not the challenge's.
  setDns(txtName, ["prs-verification=not-this-one"]);
  await check.click();
  await expect(box.getByTestId("proof-not-found")).toContainText("Found 1 TXT value(s), none equal to the challenge's.");

  // Published (beside an unrelated TXT value): issued.
  setDns(txtName, ["google-site-verification=abc", txtValue]);
  await check.click();
  const issued = box.getByTestId("proof-issued");
  await expect(issued).toBeVisible();
  const id = (await issued.getAttribute("data-id"))!;
  expect(id).toMatch(/^PRS-[0-9A-HJKMNP-TV-Z]{20}$/);
  await expect(box.getByTestId("certificate-link")).toHaveAttribute("href", `/r/${id}`);
  await expect(box.getByTestId("record-link")).toHaveAttribute("href", `/records/${id}`);
  await shot(page, "proofs-domain-issued");

  // The record, read back with the account's own API key and through the public status.
  const rec = await getJson(`/api/v1/records/${id}`, sandboxKey);
  expect(rec.status).toBe(200);
  expect(rec.body).toMatchObject({
    claim_type: "domain_ownership", subject: domain, status: "active", evidence_level: "source_verified", environment: "sandbox",
    visibility: "private", evidence: { challenge_id: challengeId, domain, txt_name: txtName, txt_value: txtValue },
  });
  expect(rec.body.lifecycle.history[0].by).toBe("owner");
  const status = await getJson(`/api/v1/records/${id}/status`);
  expect(status.status).toBe(200);
  expect(status.body).toMatchObject({ verification_id: id, status: "active", subject: domain, claim_type: "domain_ownership", evidence_level: "source_verified" });

  // The certificate: active, checked against DNS (source verified), what was proved. A
  // sandbox record is never "verified" (CONTRACT): the banner says so.
  await box.getByTestId("certificate-link").click();
  await expect(page).toHaveURL(new RegExp(`/r/${id}$`));
  await expect(page.getByRole("heading", { level: 1 })).toContainText("Sandbox test record — proves nothing");
  await expect(page.getByText(domain).first()).toBeVisible();
  await expect(page.getByTestId("status-badge")).toHaveText("Active");
  await expect(page.getByTestId("verified-mark")).toHaveText("Not verified");
  await expect(page.getByTestId("proof-scope")).toContainText(`Control of DNS for ${domain}`);
  await expect(page.getByTestId("proof-scope")).toContainText(txtValue);
  await expect(page.getByTestId("sandbox-banner")).toBeVisible();
  await shot(page, "proofs-domain-certificate");

  // Back on the challenge: it is used up by that record.
  await page.goto(`/proofs?environment=sandbox&challenge=${challengeId}`);
  await expect(page.getByTestId("challenge-used")).toContainText(id);
  await expect(page.getByTestId("domain-challenge")).toHaveCount(0);

  // The resolver fails (SERVFAIL): unknown is not absence, so the proof goes to review (202).
  const other = `${uniq()}.example.org`;
  await request.getByLabel("Domain").fill(other);
  await request.getByRole("button", { name: "Request challenge" }).click();
  await expect(box.getByTestId("txt-name")).toHaveText(`_prs-challenge.${other}`);
  setDns(`_prs-challenge.${other}`, "servfail");
  await check.click();
  const pending = box.getByTestId("proof-pending");
  await expect(pending).toContainText("pending review");
  await expect(pending).not.toContainText("pending_review");
  const pendingId = (await pending.getAttribute("data-id"))!;
  expect((await getJson(`/api/v1/records/${pendingId}`, sandboxKey)).body).toMatchObject({ status: "pending_review", subject: other });
  expect((await getJson(`/api/v1/records/${pendingId}/status`)).status).toBe(404);
  await shot(page, "proofs-domain-pending");

  // A new challenge starts afresh: no answer about the previous one is left on the page.
  const pendingChallenge = (await box.getAttribute("data-id"))!;
  await request.getByLabel("Domain").fill(`${uniq()}.example.org`);
  await request.getByRole("button", { name: "Request challenge" }).click();
  await expect(box).not.toHaveAttribute("data-id", pendingChallenge);
  await expect(box.getByTestId("proof-pending")).toHaveCount(0);
  await expect(check).toBeVisible();

  // An id that is not this account's challenge reads as not found.
  await page.goto("/proofs?challenge=dch_AAAAAAAAAAAAAAAAAAAA");
  await expect(page.locator("#domain [role=alert]")).toContainText("No such challenge");

  // Live, once the operator gives the account a plan: the same flow issues a verified record.
  await page.goto("/developers");
  const accountId = /acct_[0-9a-z]{20}/.exec(await page.content())![0];
  await admin("plan", "set", "--account", accountId, "--plan", "starter");
  await page.goto("/proofs");
  await page.getByTestId("environment").getByRole("link", { name: "live" }).click();
  await expect(page).toHaveURL(/\/proofs\?environment=live$/);
  await expect(page.getByTestId("environment-note")).toContainText("count against your plan");
  const liveDomain = `${uniq()}.example.net`;
  await request.getByLabel("Domain").fill(liveDomain);
  await request.getByRole("button", { name: "Request challenge" }).click();
  await expect(page).toHaveURL(/environment=live&challenge=dch_/);
  setDns(`_prs-challenge.${liveDomain}`, [(await box.getByTestId("txt-value").innerText()).trim()]);
  await box.getByLabel(/^Public record/).check();
  await check.click();
  const liveId = (await box.getByTestId("proof-issued").getAttribute("data-id"))!;
  const liveStatus = await getJson(`/api/v1/records/${liveId}/status`);
  expect(liveStatus.body).toMatchObject({ status: "active", environment: "live", verified: true, subject: liveDomain });
  // The sandbox key does not see the live record (environments are separate).
  expect((await getJson(`/api/v1/records/${liveId}`, sandboxKey)).status).toBe(404);
  await box.getByTestId("certificate-link").click();
  await expect(page.getByRole("heading", { level: 1 })).toContainText("Checked against a source");
  await expect(page.getByText(liveDomain).first()).toBeVisible();
  // Checked, live and active — but the account is no verified organisation, so the page is never green beside its name.
  await expect(page.getByTestId("verified-mark")).toHaveText("Checked — by an account whose name is not verified");
  await expect(page.locator("main")).toHaveAttribute("data-tone", "checked");
  await expect(page.getByTestId("sandbox-banner")).toHaveCount(0);
  await expect(page.getByTestId("proof-scope")).toContainText(`Control of DNS for ${liveDomain}`);
  await shot(page, "proofs-domain-live-certificate");
  expect(errors).toEqual([]);
});

/** EIP-191 personal_sign recovery with @noble/curves alone (independent of viem and the app). */
function recoverSigner(messageBytes: Uint8Array, signature: Hex): string {
  const prefix = new TextEncoder().encode(`\x19Ethereum Signed Message:\n${messageBytes.length}`);
  const hash = keccak_256(new Uint8Array([...prefix, ...messageBytes]));
  const sig = hexToBytes(signature);
  const pub = secp256k1.Signature.fromBytes(sig.slice(0, 64), "compact").addRecoveryBit(sig[64]! - 27).recoverPublicKey(hash).toBytes(false);
  return getAddress(`0x${Buffer.from(keccak_256(pub.slice(1)).slice(-20)).toString("hex")}`);
}

test("wallet proof: connect an injected wallet, request, sign, issue; a wrong signature leaves the challenge usable", async ({ page }) => {
  const wallet = privateKeyToAccount(generatePrivateKey());
  const stranger = privateKeyToAccount(generatePrivateKey());
  let signer = stranger; // the first signature is made by the wrong key
  const signed: { hex: Hex; from: string; signature: Hex }[] = [];
  const errors = await collectBrowserErrors(page);
  await installTestWallet(page, wallet.address, () => signer, signed);
  const sandboxKey = await signedInOnProofs(page);

  const part = page.getByTestId("wallet-proof");
  await expect(page.getByTestId("no-wallet")).toHaveCount(0);
  await part.getByRole("button", { name: "Connect browser wallet" }).click();
  await expect(part.getByTestId("wallet-address")).toHaveText(wallet.address);
  await expectNoSecretFields(page);

  await part.getByLabel("Network").selectOption("ethereum");
  await part.getByRole("button", { name: "Request challenge" }).click();
  const message = part.getByTestId("wallet-message");
  await expect(message).toContainText(wallet.address);
  await expect(message).toContainText("Network: ethereum");
  const shown = await message.innerText();
  const challengeId = /Challenge ID: (wch_[A-Za-z0-9]{20})/.exec(shown)![1]!;
  // The message can be copied (e.g. to sign it with another tool), exactly as shown.
  await part.getByRole("button", { name: "Copy message" }).click();
  await expect(part.getByRole("button", { name: "Copy message" })).toHaveText("Copied");
  expect(await page.evaluate(() => navigator.clipboard.readText())).toBe(await message.evaluate((el) => el.textContent));
  await shotBoth(page, "proofs-wallet-challenge");

  // Signed by another key: refused, nothing issued, the same challenge can be signed again.
  const submit = part.getByRole("button", { name: "Sign with wallet and submit" });
  await submit.click();
  await expect(part.getByTestId("proof-error")).toContainText(`not made by the key behind ${wallet.address}`);
  await expect(part.getByTestId("wallet-challenge")).toBeVisible();
  await shot(page, "proofs-wallet-mismatch");

  signer = wallet;
  await submit.click();
  const issued = part.getByTestId("proof-issued");
  await expect(issued).toBeVisible();
  const id = (await issued.getAttribute("data-id"))!;
  await expect(part.getByTestId("certificate-link")).toHaveAttribute("href", `/r/${id}`);
  await shot(page, "proofs-wallet-issued");

  // The wallet was asked (personal_sign, [hex message, address]) to sign exactly the shown text.
  expect(signed).toHaveLength(2);
  const last = signed[1]!;
  expect(last.from.toLowerCase()).toBe(wallet.address.toLowerCase());
  const rec = await getJson(`/api/v1/records/${id}`, sandboxKey);
  expect(rec.status).toBe(200);
  const message_ = rec.body.evidence.message as string;
  expect(hexToString(last.hex)).toBe(message_);
  expect(message_).toContain(`Challenge ID: ${challengeId}`);
  expect(rec.body).toMatchObject({
    claim_type: "wallet_ownership", subject: wallet.address, status: "active", evidence_level: "source_verified",
    evidence: { challenge_id: challengeId, address: wallet.address, network: "ethereum", signature: last.signature, signature_scheme: "eip191" },
  });
  // Checked independently of the app: viem, and a bare secp256k1 recovery.
  expect(await verifyMessage({ address: wallet.address, message: message_, signature: last.signature })).toBe(true);
  expect(recoverSigner(new TextEncoder().encode(message_), last.signature)).toBe(wallet.address);
  expect(recoverSigner(new TextEncoder().encode(message_), signed[0]!.signature)).toBe(stranger.address);

  const status = await getJson(`/api/v1/records/${id}/status`);
  expect(status.status).toBe(200);
  expect(status.body).toMatchObject({ verification_id: id, status: "active", claim_type: "wallet_ownership", subject: wallet.address });

  await part.getByTestId("certificate-link").click();
  await expect(page).toHaveURL(new RegExp(`/r/${id}$`));
  await expect(page.getByText(wallet.address).first()).toBeVisible();
  await expect(page.getByTestId("status-badge")).toHaveText("Active");
  await expect(page.getByTestId("proof-scope")).toContainText(`ethereum address ${wallet.address}`);
  await shot(page, "proofs-wallet-certificate");
  expect(errors).toEqual([]);
});
