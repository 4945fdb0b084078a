import { domainToUnicode } from "node:url";
import { and, count, eq, inArray, ne, sql } from "drizzle-orm";
import { accounts, organisations, recordReports, records, recordValues, staffAudit } from "@/drizzle/schema";
import type { DbOrTx } from "@/lib/db/client";
import { recordValuesOf } from "@/lib/record-model/record-values";
import { findWatchHits } from "@/lib/watches/match-watches";
import { recordWatchValues, type WatchedValue } from "@/lib/watches/record-watch-values";
import { domainKeySkeleton, nameKey, registrableDomain, skeletonOf } from "@/lib/watches/watch-value";

/**
 * What a reviewer or admin should know before approving (issue 39, item 2): signals computed
 * for every submission, organisation application and plan request, shown at the top of the
 * console page. `high` signals make the item high-risk: a live one then needs a second reviewer
 * (four eyes, lib/reviews/four-eyes.ts). `notice` signals are shown, not enforced.
 *
 * Names and domains are compared with the impersonation watches' matcher (findWatchHits:
 * exact, TR39 confusable, or look-alike by one edit or an ASCII trick) against the watches of
 * verified organisations — their legal name, LEI and proved domains are watched by default.
 */
export type RiskLevel = "high" | "notice";
export type RiskSignal = { code: RiskCode; level: RiskLevel; message: string };
export type RiskAssessment = { level: RiskLevel | "none"; signals: RiskSignal[] };
export type RiskCode =
  | "account_suspended" | "new_account" | "renamed" | "email_unconfirmed" | "sandbox_only"
  | "verified_name" | "verified_domain" | "verified_lei" | "payee_elsewhere"
  | "idn_domain" | "mixed_script" | "open_reports" | "taken_down_before";

/** An account younger than this is new. */
export const NEW_ACCOUNT_MS = 7 * 24 * 3600_000;

const ago = (ms: number) => {
  const h = Math.floor(ms / 3600_000);
  if (h < 1) {
    const m = Math.max(1, Math.floor(ms / 60_000));
    return `${m} minute${m === 1 ? "" : "s"} ago`;
  }
  if (h < 48) return `${h} hour${h === 1 ? "" : "s"} ago`;
  return `${Math.floor(h / 24)} days ago`;
};

/** The scripts a homograph mixes (TR39's "mixed-script confusables" come from these). */
const SCRIPTS = ["Latin", "Cyrillic", "Greek", "Armenian", "Cherokee", "Georgian"] as const;
const SCRIPT_RE = Object.fromEntries(SCRIPTS.map((s) => [s, new RegExp(`\\p{Script=${s}}`, "u")])) as Record<(typeof SCRIPTS)[number], RegExp>;

/** The letters of `text` come from more than one of SCRIPTS (a Latin name with a Cyrillic `а`). */
export function isMixedScript(text: string): boolean {
  let seen = 0;
  for (const s of SCRIPTS) if (SCRIPT_RE[s].test(text)) seen++;
  return seen > 1;
}

/** A submission's values, as the watches compare them (its lookup values, names and LEIs, and its account's name). */
export function submissionValues(row: Parameters<typeof recordValuesOf>[0], accountName: string | null): WatchedValue[] {
  const values = recordValuesOf({ ...row, environment: "live", visibility: "public" });
  return recordWatchValues(row as Parameters<typeof recordWatchValues>[0], values, accountName);
}

/** A name, domain or LEI typed elsewhere (an organisation application, an account's name) as a value to compare. */
export function plainValues(items: { kind: "name" | "domain" | "lei"; value: string; field: string }[]): WatchedValue[] {
  return items.flatMap((i): WatchedValue[] => {
    if (i.kind === "name") {
      const key = nameKey(i.value);
      return key ? [{ kind: "name", key, skeleton: skeletonOf(key), value: i.value, field: i.field }] : [];
    }
    if (i.kind === "domain") {
      const d = registrableDomain(i.value);
      return d ? [{ kind: "domain", key: d, skeleton: domainKeySkeleton(d), value: i.value, field: i.field }] : [];
    }
    const key = i.value.replace(/\s+/g, "").toUpperCase();
    return key ? [{ kind: "lei", key, skeleton: null, value: i.value, field: i.field }] : [];
  });
}

/**
 * The signals for `accountId` submitting `values` (`environment`: a sandbox item is never
 * high-risk — it proves nothing and is never public — but its signals are shown).
 */
export async function assessRisk(
  db: DbOrTx, input: { accountId: string; values: readonly WatchedValue[]; environment?: "live" | "sandbox" }, now = new Date(),
): Promise<RiskAssessment> {
  const signals: RiskSignal[] = [];
  const add = (code: RiskCode, level: RiskLevel, message: string) => signals.push({ code, level, message });
  const [acct] = await db.select().from(accounts).where(eq(accounts.id, input.accountId));
  if (!acct) return { level: "none", signals };

  if (acct.suspendedAt) add("account_suspended", "high", `The account is suspended by staff: ${(acct.suspendedReason ?? "no reason recorded").replace(/\.$/, "")}.`);
  const age = now.getTime() - acct.createdAt.getTime();
  if (age < NEW_ACCOUNT_MS) add("new_account", "notice", `The account was opened ${ago(age)}.`);
  if (acct.renameCount > 0) {
    add("renamed", "notice", `The account renamed itself ${acct.renameCount === 1 ? "once" : `${acct.renameCount} times`}, last ${acct.renamedAt ? ago(now.getTime() - acct.renamedAt.getTime()) : "some time ago"}.`);
  }
  if (!acct.emailConfirmedAt) add("email_unconfirmed", "notice", "The account's email address is not confirmed.");

  const values = [...input.values];
  const [hits, payees, leis, history, reports, takenDown] = await Promise.all([
    findWatchHits(db, values, { onlyVerifiedOrganisations: true }),
    payeesElsewhere(db, input.accountId, values),
    leisElsewhere(db, input.accountId, values),
    db.select({ environment: records.environment, n: count() }).from(records)
      .where(and(eq(records.accountId, input.accountId), inArray(records.status, ["active", "suspended", "revoked", "expired", "superseded"])))
      .groupBy(records.environment),
    db.select({ status: recordReports.status, n: count() }).from(recordReports)
      .innerJoin(records, eq(records.id, recordReports.recordId))
      .where(eq(records.accountId, input.accountId)).groupBy(recordReports.status),
    db.select({ n: count() }).from(staffAudit)
      .where(and(eq(staffAudit.accountId, input.accountId), inArray(staffAudit.action, ["record.suspend", "record.revoke", "account.suspend"]))),
  ]);

  const orgNames = await organisationNames(db, [...new Set([...hits.map((h) => h.watch.account_id), input.accountId])]);
  // An account that is itself a verified organisation uses its own legal name: another organisation of
  // exactly that name is a namesake (shown where names are decided: the application page), not an
  // impersonation; a look-alike of another's name stays a signal, whoever verified it.
  const ownName = orgNames.has(input.accountId) ? nameKey(orgNames.get(input.accountId)!) : null;
  const said = new Set<string>();
  for (const h of hits) {
    if (h.watch.account_id === input.accountId || h.watch.kind === "lei") continue; // its own organisation; LEIs: leisElsewhere
    if (h.value.kind === "name" && h.how === "exact" && ownName !== null && h.value.key === ownName) continue;
    // The same registrable domain is the organisation's only where it proved it: a value on the host it
    // proved or under it (two accounts' sites on one shared registrable domain are not one another's).
    if (h.value.kind === "domain" && h.how === "exact" && !onOrUnder(hostOf(h.value.value), hostOf(h.watch.value))) continue;
    const key = `${h.watch.id} ${h.value.key}`;
    if (said.has(key)) continue;
    said.add(key);
    const org = orgNames.get(h.watch.account_id) ?? h.watch.account_id;
    const how = h.how === "exact" ? "is" : h.how === "confusable" ? "looks the same as (other characters)" : "is a look-alike of";
    const code: RiskCode = h.watch.kind === "domain" ? "verified_domain" : h.watch.kind === "name" ? "verified_name" : "payee_elsewhere";
    add(code, "high", `${h.value.field}: “${h.value.value}” ${how} ${h.watch.kind} “${h.watch.value}” of the verified organisation ${org} (another account).`);
  }
  for (const p of payees) add("payee_elsewhere", "high", `${p.field}: ${p.kind} ${p.value} is already on record for another account (${p.accountId}${p.name ? `, calling itself ${p.name}` : ""}).`);
  for (const l of leis) add("verified_lei", "high", `${l.field}: LEI ${l.value} is the verified organisation ${l.legalName} (another account).`);

  for (const v of values) {
    if (v.kind === "domain" && /(^|\.)xn--/.test(v.key)) add("idn_domain", "notice", `${v.field}: ${v.key} is an internationalised domain (${domainToUnicode(v.key)}).`);
    const shown = v.kind === "domain" ? domainToUnicode(v.key) || v.key : v.value;
    if ((v.kind === "name" || v.kind === "domain") && isMixedScript(shown)) add("mixed_script", "high", `${v.field}: “${shown}” mixes letters of different scripts.`);
  }

  const live = history.find((h) => h.environment === "live")?.n ?? 0;
  const sandbox = history.find((h) => h.environment === "sandbox")?.n ?? 0;
  if (live === 0 && sandbox > 0) add("sandbox_only", "notice", `The account has no live record yet, only ${sandbox} sandbox record${sandbox === 1 ? "" : "s"}.`);
  const open = reports.find((r) => r.status === "open")?.n ?? 0;
  const closed = reports.find((r) => r.status === "closed")?.n ?? 0;
  if (open + closed > 0) add("open_reports", open > 0 ? "high" : "notice", `Problems were reported about the account's records: ${open} open, ${closed} closed.`);
  const downs = takenDown[0]?.n ?? 0;
  if (downs > 0) add("taken_down_before", "high", `Staff suspended or revoked the account's records (or the account) ${downs === 1 ? "once" : `${downs} times`} before.`);

  const high = signals.some((s) => s.level === "high") && input.environment !== "sandbox";
  return { level: high ? "high" : signals.length ? "notice" : "none", signals };
}

/** The host a domain or web address names, lower case, without a trailing dot (null when it names none). */
function hostOf(text: string): string | null {
  const raw = text.trim().toLowerCase();
  try {
    return (/[/:?#@]/.test(raw) ? new URL(/^[a-z][a-z0-9+.-]*:\/\//.test(raw) ? raw : `https://${raw}`).hostname : raw).replace(/\.$/, "") || null;
  } catch {
    return null;
  }
}

/** `host` is `base` or under it (a leading `www.` aside on either). */
function onOrUnder(host: string | null, base: string | null): boolean {
  if (!host || !base) return false;
  const [h, b] = [host.replace(/^www\./, ""), base.replace(/^www\./, "")];
  return h === b || h.endsWith(`.${b}`);
}

async function organisationNames(db: DbOrTx, accountIds: string[]) {
  if (accountIds.length === 0) return new Map<string, string>();
  const rows = await db.select({ accountId: organisations.accountId, legalName: organisations.legalName }).from(organisations)
    .where(inArray(organisations.accountId, accountIds));
  return new Map(rows.map((r) => [r.accountId, r.legalName]));
}

/** IBANs and wallets among `values` that another account's live record carries (any status). */
async function payeesElsewhere(db: DbOrTx, accountId: string, values: readonly WatchedValue[]) {
  const payees = values.filter((v) => v.kind === "iban" || v.kind === "wallet");
  if (payees.length === 0) return [];
  const rows = await db.selectDistinctOn([recordValues.kind, recordValues.value], {
    kind: recordValues.kind, value: recordValues.value, accountId: records.accountId, name: accounts.name,
  })
    .from(recordValues)
    .innerJoin(records, eq(records.id, recordValues.recordId))
    .innerJoin(accounts, eq(accounts.id, records.accountId))
    .where(and(
      sql`(${recordValues.kind}, ${recordValues.value}) in (select p.k, p.v from jsonb_to_recordset(${JSON.stringify(payees.map((p) => ({ k: p.kind, v: p.key })))}::jsonb) as p(k text, v text))`,
      ne(records.accountId, accountId), eq(records.environment, "live"),
    ))
    .limit(20);
  return rows.map((r) => ({ ...r, field: payees.find((p) => p.kind === r.kind && p.key === r.value)?.field ?? r.kind }));
}

/** LEIs among `values` that another account is the verified organisation of. */
async function leisElsewhere(db: DbOrTx, accountId: string, values: readonly WatchedValue[]) {
  const leis = values.filter((v) => v.kind === "lei");
  if (leis.length === 0) return [];
  const rows = await db.select({ lei: organisations.lei, legalName: organisations.legalName }).from(organisations)
    .where(and(inArray(organisations.lei, leis.map((l) => l.key)), ne(organisations.accountId, accountId)));
  return rows.map((r) => ({ value: r.lei!, legalName: r.legalName, field: leis.find((l) => l.key === r.lei)?.field ?? "lei" }));
}
