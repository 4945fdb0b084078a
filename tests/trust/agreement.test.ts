import fs from "node:fs";
import path from "node:path";
import { randomUUID } from "node:crypto";
import { describe, expect, inject, it } from "vitest";
import { verdictFor as badgeVerdict, type StatusAnswer } from "@/lib/public/embed/verdict";
import { admin, call, newLiveAccount, untilRechecked } from "../helpers";
import { randomLei, setLeiRecord, updateLeiRecord } from "../lei-register";
import { nextIp } from "../portal-client";
import { domainRecord, walletRecord } from "../proved-records";
import { verifyWithJwks } from "../signatures";

/**
 * Every public surface says the same thing (issue 38, item 1). A table of scenarios — a
 * verified organisation, an account that only names itself (a look-alike domain under a real
 * organisation's name), an organisation whose verification lapsed, a record its owner
 * suspended, a record naming no website shown on another host — each run through every
 * surface that gives a verdict: the certificate, the signed status, the record object, the
 * lookup (API and home box), /check (API and page), the badge, the directory and the VC. They
 * must agree with the row, and nothing may be green where the row says it must not be.
 * Signatures are checked with jose + canonicalize. A guard below fails when a public page or
 * route is added without being put in SURFACES (and here) or in NO_VERDICT with a reason.
 */

/** What one scenario must read on every surface. */
type Row = {
  tone: "verified" | "checked" | "stated" | "lapsed"; // certificate and directory (lib/record-model/evidence-level-text.ts)
  verified: boolean; // signed status `verified`
  nameVerified: boolean; // signed status `account.name_verified`, the VC's `account_name_verified`
  lookup: "verified" | "checked" | "attested" | "no_match";
  check: "match" | "unverified_operator" | "not_on_record"; // /check part, no operator asked
  badge: "verified" | "unverified_operator" | "about" | "inactive"; // on the record's own host (or any, for "about")
  listed: boolean; // in the directory
  /** The record's verdict is green (certificate, status, lookup, /check); the badge only where `badge` is "verified". */
  green: boolean;
};

const TABLE = {
  verifiedOrganisation: { tone: "verified", verified: true, nameVerified: true, lookup: "verified", check: "match", badge: "verified", listed: true, green: true },
  selfDeclaredLookAlike: { tone: "checked", verified: true, nameVerified: false, lookup: "checked", check: "unverified_operator", badge: "unverified_operator", listed: true, green: false },
  lapsedOrganisation: { tone: "checked", verified: true, nameVerified: false, lookup: "checked", check: "unverified_operator", badge: "unverified_operator", listed: true, green: false },
  suspendedByOwner: { tone: "lapsed", verified: false, nameVerified: true, lookup: "no_match", check: "not_on_record", badge: "inactive", listed: false, green: false },
  walletOnAnotherHost: { tone: "verified", verified: true, nameVerified: true, lookup: "verified", check: "match", badge: "about", listed: true, green: true },
} satisfies Record<string, Row>;

/** The surfaces that give a public verdict, each read below for every row. */
const SURFACES = {
  "app/r/[id]/page.tsx": "certificate",
  "app/api/v1/records/[id]/status/route.ts": "signed status",
  "app/api/v1/records/[id]/route.ts": "record object (the owner's)",
  "app/api/v1/lookup/route.ts": "lookup",
  "app/page.tsx": "home box (the lookup on the home page)",
  "app/api/v1/check/route.ts": "/check API",
  "app/check/page.tsx": "/check page",
  "app/embed.js/route.ts": "badge (lib/public/embed/verdict.ts over the signed status)",
  "app/directory/page.tsx": "directory",
  "app/api/v1/records/[id]/vc/route.ts": "verifiable credential",
};

/** Public pages and routes that give no verdict of their own, and why. Everything under app/ is in one of the two lists. */
const NO_VERDICT: Record<string, string> = {
  "app/r/[id]/history/page.tsx": "the record's history entries, as the certificate lists them; no verdict",
  "app/r/[id]/qr/route.ts": "a QR code of the certificate's address",
  "app/no-such-record/page.tsx": "says an id is no issued record",
  "app/embed/[file]/route.ts": "the badge script's versioned copies (the badge is in SURFACES)",
  "app/api/v1/records/[id]/signature/route.ts": "the signature as issued (signed payload), no present verdict",
  "app/api/v1/records/[id]/history/route.ts": "history entries",
  "app/api/v1/records/[id]/log/route.ts": "transparency-log proofs",
  "app/api/v1/records/[id]/evidence/route.ts": "the owner refreshes evidence",
  "app/api/v1/records/[id]/lifecycle/route.ts": "the owner moves a record",
  "app/api/v1/records/[id]/principal/route.ts": "the owner changes an agent's principal",
  "app/api/v1/records/route.ts": "the owner's records and submissions (record objects as in SURFACES)",
  "app/api/v1/records/batch/route.ts": "the owner's batch submissions",
  "app/api/v1/status-lists/[purpose]/[list]/route.ts": "the VC status lists: bits, no names",
  "app/sandbox/status-lists/[purpose]/[list]/route.ts": "the sandbox's VC status lists",
  "app/.well-known/jwks.json/route.ts": "signing keys",
  "app/.well-known/did.json/route.ts": "the issuer's DID document",
  "app/sandbox/did.json/route.ts": "the sandbox issuer's DID document",
  "app/ns/credentials/v1/route.ts": "the VC context",
  "app/keys/[id]/route.ts": "an agent's mandate keys",
  "app/keys/[id]/[key_id]/route.ts": "one mandate key",
  "app/log/checkpoint/route.ts": "the log's checkpoint",
  "app/log/key/route.ts": "the log's key",
  "app/log/tile/[...path]/route.ts": "log tiles",
  "app/api/v1/openapi.json/route.ts": "the API description",
  "app/docs/api-reference.js/route.ts": "the API reference's script",
  "app/docs/page.tsx": "documentation",
  "app/docs/guides/page.tsx": "documentation",
  "app/docs/guides/[slug]/page.tsx": "documentation",
  "app/manifest.ts": "the web app manifest",
  "app/api/[...path]/route.ts": "the API's catch-all: 404 for an unknown path",
};

/** Signed-in areas (the portal, the console, accounts): not public surfaces. */
const SIGNED_IN = /^app\/(admin|developers|records|review|watches|organisation|proofs|confirm|signin|signup|reset-password)\/|^app\/api\/(v1\/(account|api-keys|mandate-keys|webhooks|events|files|usage|watches|badge-sightings|domain-challenges|wallet-challenges)|auth|internal|health|metrics)\b/;

const sig = async (body: Record<string, unknown>, field: string) => {
  const { [field]: signature, ...rest } = body;
  expect(await verifyWithJwks(rest, signature as string, rest.signing_key_id as string)).toBe(true);
  return rest as Record<string, any>;
};
const headers = () => ({ "x-forwarded-for": nextIp() });

/** Every surface's answer for one record, read as a stranger (and its owner) would. */
async function readEverySurface(id: string, value: string, key: string, host: string) {
  const status = await sig((await call("GET", `/api/v1/records/${id}/status`)).body, "status_signature");
  const record = (await call("GET", `/api/v1/records/${id}`, { key })).body;
  const certificate = (await call("GET", `/r/${id}`)).text;
  const lookup = await sig((await call("GET", `/api/v1/lookup?${new URLSearchParams({ q: value })}`, { headers: headers() })).body, "signature");
  const home = (await call("GET", `/?${new URLSearchParams({ q: value })}`, { headers: headers() })).text;
  const part = value.startsWith("0x") ? "payee" : "website";
  const check = await sig((await call("GET", `/api/v1/check?${new URLSearchParams({ [part]: value })}`, { headers: headers() })).body, "signature");
  const checkPage = (await call("GET", `/check?${new URLSearchParams({ [part]: value })}`, { headers: headers() })).text;
  const badge = badgeVerdict({ kind: "answer", status: status as StatusAnswer }, { host, onService: false });
  const directory = (await call("GET", `/directory?${new URLSearchParams({ q: value })}`)).text;
  const vcRes = await call("GET", `/api/v1/records/${id}/vc`);
  const vc = vcRes.status === 200 ? JSON.parse(vcRes.text) : null;
  return { status, record, certificate, lookup, home, part, check, checkPage, badge, directory, vc };
}

function expectAgreement(name: string, row: Row, id: string, s: Awaited<ReturnType<typeof readEverySurface>>) {
  const at = (surface: string) => `${name}: ${surface}`;
  // Certificate
  expect(/data-tone="([a-z]+)"/.exec(s.certificate)?.[1], at("certificate tone")).toBe(row.tone);
  // Signed status and the owner's record object: the same decision.
  expect(s.status.verified, at("signed status verified")).toBe(row.verified);
  expect(s.status.account.name_verified, at("signed status name_verified")).toBe(row.nameVerified);
  expect(s.record.verified, at("record object verified")).toBe(row.verified);
  expect(s.record.account.name_verified, at("record object name_verified")).toBe(row.nameVerified);
  // Lookup, and the home box that shows it.
  expect(s.lookup.result, at("lookup result")).toBe(row.lookup);
  expect(s.lookup.matches.some((m: { verification_id: string }) => m.verification_id === id), at("lookup lists the record")).toBe(row.lookup !== "no_match");
  expect(/data-testid="lookup-answer" data-result="([a-z_]+)"/.exec(s.home)?.[1], at("home box")).toBe(row.lookup);
  // /check, API and page.
  expect(s.check.parts[s.part].verdict, at("/check API")).toBe(row.check);
  expect(new RegExp(`data-testid="verdict-${s.part}" data-verdict="([a-z_]+)"`).exec(s.checkPage)?.[1], at("/check page")).toBe(row.check);
  // Badge on the record's own host.
  expect(s.badge.state, at("badge")).toBe(row.badge);
  // Directory
  const listed = s.directory.includes(`data-id="${id}"`);
  expect(listed, at("directory listed")).toBe(row.listed);
  if (listed) {
    const tone = new RegExp(`data-id="${id}" data-tone="([a-z]+)"`).exec(s.directory)?.[1];
    expect(tone, at("directory tone")).toBe(row.tone);
  }
  // Verifiable credential: the speaker as the status names it.
  expect(s.vc?.credentialSubject.account_name_verified ?? false, at("VC account_name_verified")).toBe(row.nameVerified && s.status.account.name !== null);
  // Nothing green where the row says it must not be — on any surface.
  const green = {
    certificate: s.certificate.includes('data-tone="verified"'),
    status: s.status.verified === true && s.status.account.name_verified === true,
    lookup: s.lookup.result === "verified",
    home: s.home.includes('data-result="verified"'),
    check: s.check.parts[s.part].verdict === "match",
    checkPage: s.checkPage.includes(`data-testid="verdict-${s.part}" data-verdict="match"`),
    badge: s.badge.tone === "good",
  };
  for (const [surface, isGreen] of Object.entries(green)) {
    // The badge is green only on a host the record covers: a record naming no website is "about" elsewhere.
    expect(isGreen, at(`${surface} green`)).toBe(surface === "badge" ? row.green && row.badge === "verified" : row.green);
  }
}

describe("every public surface agrees with the one trust decision", () => {
  it("reads the same verdict everywhere, in every scenario of the table", async () => {
    const tag = randomUUID().slice(0, 6);
    const legal = `Agreement ${tag} Holdings Ltd`;
    const lei = randomLei();
    const { recordsFile } = inject("leiRegister");
    setLeiRecord(recordsFile, lei, { legalName: legal, jurisdiction: "GB", registrationStatus: "ISSUED", entityStatus: "ACTIVE" });

    // A verified organisation with its domain and wallet.
    const org = await newLiveAccount();
    const orgDomain = await domainRecord(org.liveKey, `agree-${tag}.example.com`);
    const orgWallet = await walletRecord(org.liveKey);
    const suspended = await domainRecord(org.liveKey, `agree-old-${tag}.example.com`);
    await admin("organisation", "verify", "--account", org.accountId, "--legal-name", legal, "--lei", lei, "--domains", orgDomain.domain);
    expect((await call("POST", `/api/v1/records/${suspended.id}/lifecycle`, { key: org.liveKey, body: { operation: "suspend", reason: "Domain in transfer." } })).status).toBe(200);

    // An account that only calls itself the organisation, with a look-alike domain.
    const copy = await newLiveAccount();
    expect((await call("PATCH", "/api/v1/account", { key: copy.liveKey, body: { name: legal } })).status).toBe(200);
    const lookAlike = await domainRecord(copy.liveKey, `agree-${tag}-secure.example.net`);

    // An organisation whose LEI lapsed in the register.
    const lapsedLegal = `Agreement ${tag} Lapsed plc`;
    const lapsedLei = randomLei();
    setLeiRecord(recordsFile, lapsedLei, { legalName: lapsedLegal, jurisdiction: "GB", registrationStatus: "ISSUED", entityStatus: "ACTIVE" });
    const lapsed = await newLiveAccount();
    const lapsedDomain = await domainRecord(lapsed.liveKey, `agree-lapsed-${tag}.example.com`);
    await admin("organisation", "verify", "--account", lapsed.accountId, "--legal-name", lapsedLegal, "--lei", lapsedLei);
    updateLeiRecord(recordsFile, lapsedLei, { registrationStatus: "LAPSED" });
    await untilRechecked("the organisation's lapse in its record's status", { organisation: lapsed.accountId }, async () =>
      (await call("GET", `/api/v1/records/${lapsedDomain.id}/status`)).body.account?.organisation?.status === "lapsed");

    const scenarios: [keyof typeof TABLE, string, string, string, string][] = [
      ["verifiedOrganisation", orgDomain.id, orgDomain.domain, org.liveKey, orgDomain.domain],
      ["selfDeclaredLookAlike", lookAlike.id, lookAlike.domain, copy.liveKey, lookAlike.domain],
      ["lapsedOrganisation", lapsedDomain.id, lapsedDomain.domain, lapsed.liveKey, lapsedDomain.domain],
      ["suspendedByOwner", suspended.id, suspended.domain, org.liveKey, suspended.domain],
      ["walletOnAnotherHost", orgWallet.id, orgWallet.address, org.liveKey, "shop.elsewhere.example"],
    ];
    expect(new Set(scenarios.map(([n]) => n))).toEqual(new Set(Object.keys(TABLE)));
    for (const [name, id, value, key, host] of scenarios) {
      expectAgreement(name, TABLE[name], id, await readEverySurface(id, value, key, host));
    }
  });

  it("guard: every public page and route is a surface read above, or says why it gives no verdict", () => {
    const root = path.resolve(import.meta.dirname, "../..");
    const files = fs.readdirSync(path.join(root, "app"), { recursive: true, withFileTypes: true })
      .filter((e) => e.isFile() && /^(page\.tsx|route\.ts|manifest\.ts)$/.test(e.name))
      .map((e) => path.relative(root, path.join(e.parentPath, e.name)).split(path.sep).join("/"))
      .filter((f) => !SIGNED_IN.test(f))
      .sort();
    expect(files.length).toBeGreaterThan(20); // it did look
    const unclassified = files.filter((f) => !(f in SURFACES) && !(f in NO_VERDICT));
    expect(unclassified, "add it to SURFACES (and read it in the table above) or to NO_VERDICT with the reason").toEqual([]);
    // No stale entry: each listed file still exists.
    for (const f of [...Object.keys(SURFACES), ...Object.keys(NO_VERDICT)]) expect(fs.existsSync(path.join(root, f)), f).toBe(true);
  });
});
