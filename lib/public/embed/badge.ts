import { BADGE_CSS } from "./badge-style";
import { STALE_AFTER_MS, shownSubject, verdictFor, type CheckOutcome, type StatusAnswer, type Tone, type Verdict } from "./verdict";
import { checkSignedAnswer, type Jwk } from "./verify-answer";
import { policyOf, witnessed, type WitnessPolicy } from "./witness-policy";

/*
 * The embed badge (served as /embed.js, bundled by scripts/build-embed.mjs). It fills every
 * element carrying `data-prs-record="PRS-…"` — also ones added or changed later — with a
 * badge in a shadow root: it fetches the record's public status and the service's JWKS from
 * the origin it was loaded from, verifies the Ed25519 signature itself, and shows green only
 * for a verified record whose signature checked out, on a site the record covers. It sends
 * no cookies, keeps no state in the page (no globals, no storage, nothing outside its
 * elements) and builds its DOM without HTML parsing, inline styles or eval, so it runs under
 * a strict Content-Security-Policy that allows its origin.
 */

const RECORD_ID = /^PRS-[0-9A-Z]{20}$/;
const ATTRIBUTE = "data-prs-record";

const script = document.currentScript as HTMLScriptElement | null;
const origin = script?.src ? new URL(script.src).origin : null;

type Fetched = { status: number; body: unknown } | null;

async function getJson(url: string, reload = false): Promise<Fetched> {
  try {
    const res = await fetch(url, { credentials: "omit", cache: reload ? "reload" : "default", referrerPolicy: "strict-origin-when-cross-origin" });
    const text = await res.text();
    try {
      return { status: res.status, body: JSON.parse(text) as unknown };
    } catch {
      return { status: res.status, body: null };
    }
  } catch {
    return null;
  }
}

const isObject = (v: unknown): v is Record<string, unknown> => typeof v === "object" && v !== null && !Array.isArray(v);

let jwks: Promise<Jwk[] | null> | null = null;
/** The published keys, fetched once per page; again (bypassing caches) when a status names a key not in them. */
function keys(reload = false): Promise<Jwk[] | null> {
  if (!jwks || reload) {
    jwks = getJson(`${origin}/.well-known/jwks.json`, reload).then((r) =>
      r && r.status === 200 && isObject(r.body) && Array.isArray(r.body.keys) ? (r.body.keys as Jwk[]) : null);
  }
  return jwks;
}

function isStatusAnswer(b: Record<string, unknown>): b is Record<string, unknown> & StatusAnswer {
  return typeof b.verification_id === "string" && typeof b.status === "string" && typeof b.environment === "string" &&
    typeof b.verified === "boolean" && typeof b.evidence_level === "string" && typeof b.subject === "string" &&
    typeof b.as_of === "string" && !Number.isNaN(Date.parse(b.as_of));
}

/** Fetch and verify one record's signed status; with a witness policy (witness-policy.ts), also that its log checkpoint is witnessed. */
export async function checkRecord(id: string, policy: WitnessPolicy | "invalid" | null = null): Promise<CheckOutcome> {
  if (!RECORD_ID.test(id)) return { kind: "unverifiable", reason: "bad_id" };
  if (policy === "invalid") return { kind: "unverifiable", reason: "bad_policy" };
  const [answer, published] = await Promise.all([getJson(`${origin}/api/v1/records/${encodeURIComponent(id)}/status`), keys()]);
  if (!answer || (answer.status !== 200 && answer.status !== 404)) return { kind: "unverifiable", reason: "network" };
  if (answer.status === 404) return { kind: "not_found" };
  const body = answer.body;
  if (!isObject(body) || !isStatusAnswer(body)) return { kind: "unverifiable", reason: "malformed" };
  if (!published) return { kind: "unverifiable", reason: "network" };
  let result = await checkSignedAnswer(body, published, "status_signature");
  if (result === "unknown_key") {
    const fresh = await keys(true);
    if (fresh) result = await checkSignedAnswer(body, fresh, "status_signature");
  }
  if (result === "unknown_key") return { kind: "unverifiable", reason: "unknown_key" };
  if (result === "no_crypto") return { kind: "unverifiable", reason: "insecure_page" };
  if (result !== "ok") return { kind: "unverifiable", reason: "signature" };
  if (body.verification_id !== id) return { kind: "unverifiable", reason: "wrong_record" };
  if (Date.now() - Date.parse(body.as_of) > STALE_AFTER_MS) return { kind: "unverifiable", reason: "stale" };
  if (policy) {
    const w = await witnessed(body.transparency_log, policy);
    if (w === null) return { kind: "unverifiable", reason: "insecure_page" };
    if (!w) return { kind: "unverifiable", reason: "not_witnessed" };
  }
  return { kind: "answer", status: body };
}

// ---------------------------------------------------------------- rendering

const SVG = "http://www.w3.org/2000/svg";
const ICONS: Record<Tone, string> = {
  good: "M9 12.5l2 2 4-4.5M12 3l7 3v5c0 4.5-3 8.3-7 10-4-1.7-7-5.5-7-10V6z",
  bad: "M12 8v5M12 16.5v.5M10.3 3.9L2.4 18a2 2 0 001.7 3h15.8a2 2 0 001.7-3L13.7 3.9a2 2 0 00-3.4 0z",
  caution: "M12 8v5M12 16.5v.5M12 3a9 9 0 100 18 9 9 0 000-18z",
  neutral: "M12 11v5M12 7.5V8M12 3a9 9 0 100 18 9 9 0 000-18z",
};

function el<K extends keyof HTMLElementTagNameMap>(tag: K, cls: string, text?: string): HTMLElementTagNameMap[K] {
  const e = document.createElement(tag);
  e.className = cls;
  if (text !== undefined) e.textContent = text;
  return e;
}

function icon(tone: Tone): SVGSVGElement {
  const svg = document.createElementNS(SVG, "svg");
  svg.setAttribute("viewBox", "0 0 24 24");
  svg.setAttribute("aria-hidden", "true");
  const path = document.createElementNS(SVG, "path");
  path.setAttribute("d", ICONS[tone]);
  svg.append(path);
  return svg;
}

const asOfText = (iso: string) => {
  try {
    return new Intl.DateTimeFormat(undefined, { dateStyle: "medium", timeStyle: "short" }).format(new Date(iso));
  } catch {
    return iso;
  }
};

/**
 * Where the badge links: the signed certificate link when the answer checked out and it is a
 * web address; for an id that is no issued record, the service's page saying so and that the
 * page's claim is unverified (/no-such-record: a certificate address would be a 404); else the
 * service's own certificate address.
 */
function certificateLink(id: string, outcome: CheckOutcome): string {
  const signed = outcome.kind === "answer" ? outcome.status.certificate_url : null;
  if (typeof signed === "string" && /^https?:\/\//.test(signed)) return signed;
  if (outcome.kind === "not_found") return `${origin}/no-such-record?id=${encodeURIComponent(id)}`;
  return `${origin}/r/${RECORD_ID.test(id) ? id : ""}`;
}

function badge(id: string, outcome: CheckOutcome, v: Verdict): HTMLElement {
  const linkable = outcome.kind !== "unverifiable" || outcome.reason !== "bad_id";
  const root = linkable ? el("a", `badge ${v.tone}`) : el("span", `badge ${v.tone}`);
  if (root instanceof HTMLAnchorElement) {
    root.href = certificateLink(id, outcome);
    root.target = "_blank";
    // The certificate learns which site the visitor came from (the origin only, never the page's
    // path) and warns when that site is not one the record covers (docs/embed.md).
    root.rel = "noopener";
    root.referrerPolicy = "origin";
  }
  root.dataset.state = v.state;
  root.setAttribute("role", "status");
  const mark = el("span", "mark");
  mark.append(icon(v.tone));
  const body = el("span", "body");
  body.append(el("span", "title", v.title));
  if (outcome.kind === "answer") body.append(el("span", "subject", shownSubject(outcome.status)));
  const detail = el("span", "detail", v.detail);
  if (v.named) {
    // A name the account gave itself is data: its own element, isolated from the sentence around it (issue 38).
    detail.append(" ", el("span", "selfname", v.named.name), ` ${v.named.after}`);
  }
  body.append(detail);
  const asOf = outcome.kind === "answer" ? ` · as of ${asOfText(outcome.status.as_of)}` : "";
  body.append(el("span", "meta", `Proof Records${asOf}`));
  if (linkable) body.append(el("span", "cta", outcome.kind === "not_found" ? "What this means ›" : "View certificate ›"));
  root.append(mark, body);
  return root;
}

function styleInto(shadow: ShadowRoot) {
  // A constructed stylesheet is not an inline <style>: a strict style-src does not block it.
  if ("adoptedStyleSheets" in shadow && typeof CSSStyleSheet === "function" && "replaceSync" in CSSStyleSheet.prototype) {
    const sheet = new CSSStyleSheet();
    sheet.replaceSync(BADGE_CSS);
    shadow.adoptedStyleSheets = [sheet];
  } else {
    const style = document.createElement("style");
    style.textContent = BADGE_CSS;
    shadow.append(style);
  }
}

type Filled = { box: HTMLElement; id: string; run: number };
const filled = new WeakMap<Element, Filled>();
let runs = 0;

function render(state: Filled, outcome: CheckOutcome) {
  const placement = { host: location.hostname, onService: location.origin === origin };
  state.box.replaceChildren(badge(state.id, outcome, verdictFor(outcome, placement)));
}

async function fill(host: Element) {
  const id = (host.getAttribute(ATTRIBUTE) ?? "").trim();
  let state = filled.get(host);
  if (state && state.id === id) return;
  if (!state) {
    let shadow: ShadowRoot;
    try {
      shadow = host.attachShadow({ mode: "open" });
    } catch {
      return; // not an element that can hold a badge, or another copy of this script filled it
    }
    styleInto(shadow);
    const box = el("span", "box");
    shadow.append(box);
    state = { box, id, run: 0 };
    filled.set(host, state);
  }
  const run = ++runs;
  Object.assign(state, { id, run });
  render(state, { kind: "checking" });
  const outcome = await checkRecord(id, await policyOf(host));
  if (state.run === run) render(state, outcome); // the attribute did not change meanwhile
}

function scan(root: ParentNode | Element) {
  if (root instanceof Element && root.hasAttribute(ATTRIBUTE)) void fill(root);
  root.querySelectorAll(`[${ATTRIBUTE}]`).forEach((e) => void fill(e));
}

if (origin) {
  scan(document);
  new MutationObserver((changes) => {
    for (const c of changes) {
      if (c.type === "attributes" && c.target instanceof Element) void fill(c.target);
      c.addedNodes.forEach((n) => n instanceof Element && scan(n));
    }
  }).observe(document.documentElement, { childList: true, subtree: true, attributes: true, attributeFilter: [ATTRIBUTE] });
}
