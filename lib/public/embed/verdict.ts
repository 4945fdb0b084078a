import { levelHeadline, speakerName, STATUS_TEXT, withSpeakerText } from "@/lib/record-model/evidence-level-text";

/*
 * What the embed badge says, from what its check found (no DOM, no I/O: unit-tested). Only a
 * verified record (live, active, checked) of a verified organisation whose signed status
 * checked out, shown on a site the record covers, is green; the same of an account whose name
 * nobody verified is amber. Everything else says plainly why not. It reads the server's one
 * trust decision from the signed status (`verified`, `covers_hosts`, `account.name_verified`)
 * and derives nothing else.
 */

/** The fields of a signed status the badge reads (after its signature checked out). */
export type StatusAnswer = {
  verification_id: string;
  status: string;
  environment: string;
  verified: boolean;
  evidence_level: string;
  subject: string;
  websites?: unknown;
  /** How to show the subject and websites (look-alike domains with their A-label), decided and signed by the server. */
  display?: { subject?: unknown; websites?: unknown } | null;
  as_of: string;
  certificate_url?: unknown;
  account?: { name?: unknown; name_verified?: unknown } | null;
  covers_hosts?: unknown;
};

export type Unverifiable = "network" | "signature" | "unknown_key" | "malformed" | "wrong_record" | "stale" | "bad_id" | "insecure_page" | "not_witnessed" | "bad_policy";

export type CheckOutcome =
  | { kind: "checking" }
  | { kind: "answer"; status: StatusAnswer }
  | { kind: "not_found" }
  | { kind: "unverifiable"; reason: Unverifiable };

export type Tone = "good" | "neutral" | "caution" | "bad";
export type BadgeState = "checking" | "verified" | "unverified_operator" | "about" | "stated" | "sandbox" | "inactive" | "wrong_site" | "not_found" | "unverified";
/**
 * What the badge shows. `named`: a self-declared account name, shown after `detail` inside an
 * element of its own (as data, never inside the service's sentence), then `after`.
 */
export type Verdict = { state: BadgeState; tone: Tone; title: string; detail: string; named?: { name: string; after: string } };

/** Where the badge is shown: the page's host, and whether the page is the service's own (its portal's preview). */
export type Placement = { host: string; onService: boolean };

/** The signed status is older than this (by the visitor's clock): it may be a replay, so it is not shown as current. */
export const STALE_AFTER_MS = 60 * 60 * 1000;

const UNVERIFIABLE: Record<Unverifiable, string> = {
  network: "The status could not be fetched from Proof Records.",
  signature: "The status answer's signature does not check out.",
  unknown_key: "The status answer is signed with a key Proof Records does not publish.",
  malformed: "The answer received is not a Proof Records status.",
  wrong_record: "The answer received is about a different record.",
  stale: "The status answer received is out of date.",
  bad_id: "The badge names no valid record id.",
  insecure_page: "This page is not served securely (https), so its browser cannot check the signature.",
  not_witnessed: "The record's log entry is not (yet) cosigned by enough of the witnesses this page requires.",
  bad_policy: "The badge's data-witness or data-witness-quorum attribute is not valid.",
};

const hostOf = (h: string) => h.toLowerCase().replace(/\.$/, "");

/**
 * Whether a page on `host` is one of the hosts the signed status says the badge may be green
 * on (`covers_hosts`, decided once by the server: lib/trust/decide.ts badgeHosts). Exact
 * hosts only: no other subdomain is covered.
 */
export function coversHost(host: string, hosts: readonly string[]): boolean {
  const h = hostOf(host);
  return h !== "" && hosts.some((w) => hostOf(w) === h);
}

/** The subject as the badge shows it: the server's signed `display` form (a look-alike domain with its A-label), else the raw subject. */
export const shownSubject = (s: StatusAnswer): string => (typeof s.display?.subject === "string" ? s.display.subject : s.subject);

const stringsOf = (v: unknown): string[] => (Array.isArray(v) ? v.filter((w): w is string => typeof w === "string") : []);

export function verdictFor(outcome: CheckOutcome, placement: Placement): Verdict {
  if (outcome.kind === "checking") return { state: "checking", tone: "neutral", title: "Checking…", detail: "Verifying the signed status." };
  if (outcome.kind === "not_found") {
    return { state: "not_found", tone: "bad", title: "No such record", detail: "Proof Records has no issued record with this id." };
  }
  if (outcome.kind === "unverifiable") {
    return { state: "unverified", tone: "bad", title: "Could not verify", detail: UNVERIFIABLE[outcome.reason] };
  }
  const s = outcome.status;
  if (s.environment !== "live") {
    return { state: "sandbox", tone: "caution", title: "Sandbox — not verified", detail: "A test record: it proves nothing." };
  }
  if (s.status !== "active") {
    const label = STATUS_TEXT[s.status]?.label ?? s.status;
    return { state: "inactive", tone: "bad", title: `${label} — do not rely on this`, detail: STATUS_TEXT[s.status]?.explain ?? "This record is not in force." };
  }
  const shownWebsites = stringsOf(s.display?.websites);
  const websites = shownWebsites.length > 0 ? shownWebsites : stringsOf(s.websites);
  const subject = shownSubject(s);
  const hosts = stringsOf(s.covers_hosts);
  const account = { name: typeof s.account?.name === "string" ? s.account.name : null, name_verified: s.account?.name_verified === true };
  const level = levelHeadline({ level: s.evidence_level, account, environment: s.environment, verified: s.verified });
  const headline = { title: withSpeakerText(level.title, account) };
  const who = speakerName(account);
  if (!s.verified) {
    return { state: "stated", tone: "neutral", title: "Stated, not checked", detail: `${who} made this statement; Proof Records checked nothing in it.` };
  }
  if (placement.onService || coversHost(placement.host, hosts)) {
    // Green only for a verified organisation (issue 38): a checked record of an account whose name nobody verified says
    // who controls the site, not who runs it — amber, no check mark (EV certificates taught that green reads as "safe").
    if (!account.name_verified) {
      const site = placement.onService ? "This site" : hostOf(placement.host);
      return account.name
        ? { state: "unverified_operator", tone: "caution", title: "Who runs this site is not verified", detail: `${site} is controlled by an account that calls itself`, named: { name: account.name, after: "— a name nobody verified." } }
        : { state: "unverified_operator", tone: "caution", title: "Who runs this site is not verified", detail: `${site} is controlled by an account that gives no name.` };
    }
    return { state: "verified", tone: "good", title: `Verified — ${headline.title.replace(/^./, (c) => c.toLowerCase())}`, detail: `Statement by ${who}.` };
  }
  if (websites.length > 0) {
    return {
      state: "wrong_site", tone: "bad", title: "Shown on a site this record does not cover",
      detail: `This record covers ${websites.join(", ")}, not ${hostOf(placement.host)}.`,
    };
  }
  // A record naming no website (a wallet, a company, an agent, a payment) vouches for nothing about the page it is on.
  return {
    state: "about", tone: "neutral", title: `Record about ${subject}, not about this site`,
    detail: `${headline.title} — statement by ${who}. It says nothing about who runs this page.`,
  };
}
