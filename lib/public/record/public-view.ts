import { asc, eq, inArray } from "drizzle-orm";
import { type recordHistory, recordLinks, records, type RecordStatus } from "@/drizzle/schema";
import { accountDependency, loadAccountProfiles, NO_PROFILE, type AccountProfile } from "@/lib/accounts/account-profile";
import { claimModuleFor } from "@/lib/claims/registry";
import type { ClaimModule, ViewExtras } from "@/lib/claims/types";
import type { DbOrTx } from "@/lib/db/client";
import { normalizedValue, provedHost } from "@/lib/format/normalize";
import { checksOf, type Check } from "@/lib/trust/checks";
import { badgeHosts, decideTrust, recordHosts, type Trust } from "@/lib/trust/decide";
import { TARGET_COLUMNS } from "@/lib/record-model/link-targets";
import { effectiveStatus, isIssued } from "@/lib/record-model/effective-status";
import { getPublicRecord } from "@/lib/record-model/get-record";
import { loadRecentHistories } from "@/lib/record-model/history-page";
import type { LinkedStanding, LinkedTarget } from "@/lib/record-model/link-types";
import { recordUrls } from "@/lib/record-model/urls";

type RecordRow = typeof records.$inferSelect;
type HistoryRow = typeof recordHistory.$inferSelect;

export type HistoryEntry = { status: RecordStatus; at: Date; reason: string | null; by: string };

/**
 * The one public view of a record: its status now, whether it is verified, the standing of
 * the records it rests on, the fields its claim type adds, and its history. The signed
 * status, the certificate page and the record object are all built from it, so they
 * cannot disagree.
 */
export type PublicView = {
  row: RecordRow;
  status: RecordStatus;
  changedAt: Date;
  verified: boolean;
  /** Who made the statement: the issuing account's name and verified domains, now. */
  account: AccountProfile;
  links: LinkedStanding[];
  /** The ids of the linked records: the signed-status cache drops this view when one changes. */
  linkedIds: string[];
  /** What the view read that may change: the linked records and the account (status-cache.ts). */
  dependsOn: string[];
  fields: Record<string, unknown>;
  /**
   * The websites the record speaks for (normalised host names): its type's lookup values of
   * kind `website`. Signed in the status, so the embed badge can refuse to show green on
   * any other site.
   */
  websites: string[];
  /** The one trust decision (lib/trust/decide.ts): who is speaking, checked, still standing, what a surface may say. */
  trust: Trust;
  /** What was checked, by whom, on what (lib/trust/checks.ts); empty until issued. */
  checks: Check[];
  /** The exact hosts the record is about (lib/trust/decide.ts `recordHosts`: the one coverage rule), whatever its standing. */
  aboutHosts: string[];
  /** The exact hosts a page may show the record's badge green on (signed as `covers_hosts`): `aboutHosts` while verified. */
  coversHosts: string[];
  /** The latest entries of the history (at most HISTORY_RECENT, history-page.ts), oldest first. */
  history: HistoryEntry[];
  /** How many entries the whole history has (`history` is its tail). */
  historyCount: number;
  /** The cursor for the entries before `history` (`?before=`), null when `history` is all of it. */
  historyBefore: number | null;
  now: number;
};

/** What of a record's history a view is built from: its latest entries, oldest first, and how many there are in all. */
export type HistoryTail = { count: number; olderBefore: number | null };

/** Who moved a record, as shown to anyone: the kind of actor, never an internal id. */
export const actorKind = (by: string) => by.split(":")[0] ?? by;

/** Checks a record at an issued status stands for; none for a submission (nothing was issued). */
function checksOfRow(row: Pick<RecordRow, "evidenceLevel" | "subject" | "evidencePublic" | "issuedAt">, module: ClaimModule): Check[] {
  if (!row.issuedAt) return [];
  return checksOf({ evidenceLevel: row.evidenceLevel, subject: row.subject, evidence: row.evidencePublic, at: row.issuedAt }, module);
}

function standingOf(l: LinkedTarget, now: number): LinkedStanding {
  const t = l.target;
  const { status } = effectiveStatus(t, now);
  const shown = t.visibility === "public" && isIssued(status);
  return {
    role: l.role,
    status,
    standing: status === "active" ? "active" : "lapsed",
    record: shown ? { verification_id: t.id, claim_type: t.claimType, subject: t.subject, certificate_url: recordUrls(t.id).certificate_url } : null,
  };
}

/** Build the view from what is already loaded (no I/O): a new record, or a page of them. */
export function buildPublicView(
  row: RecordRow,
  history: readonly Omit<HistoryRow, "seq" | "recordId">[],
  linked: readonly LinkedTarget[],
  account: AccountProfile,
  now = Date.now(),
  extras?: ViewExtras,
  tail: HistoryTail = { count: history.length, olderBefore: null },
): PublicView {
  const { status, changedAt } = effectiveStatus(row, now);
  const links = linked.map((l) => standingOf(l, now));
  const hist: HistoryEntry[] = history.map((h) => ({ status: h.status, at: h.at, reason: h.reason, by: actorKind(h.by) }));
  let historyCount = tail.count;
  // Expired by time but not yet by the sweep: say so in the history too — unless the history,
  // read after the row, already holds the sweep's entry (it committed in between).
  if (status === "expired" && row.status !== "expired" && row.expiresAt && hist.at(-1)?.status !== "expired") {
    hist.push({ status: "expired", at: row.expiresAt, reason: "Validity period ended.", by: "system" });
    historyCount += 1;
  }
  const module = claimModuleFor(row.claimType); // resolved once for everything the view derives from its type
  const fields = module.view?.publicFields?.({ evidence: row.evidencePublic, links, extras: extras?.data, account, linked }) ?? {};
  const accountPart = module.policy?.accountPartLapsed?.(row.evidencePublic ?? {}, account) ?? null;
  const trust = decideTrust({
    environment: row.environment, status, evidenceLevel: isIssued(row.status) ? row.evidenceLevel : null,
    partsStand: links.every((l) => l.standing === "active") && accountPart === null, account,
  });
  const sites = (module.view?.lookupValues?.(row.subject, row.evidencePublic) ?? []).filter((v) => v.kind === "website").map((v) => v.value);
  const aboutHosts = recordHosts(hostsOf(sites, provedHost), account);
  return {
    row, status, changedAt, verified: trust.verified, account, links, linkedIds: linked.map((l) => l.target.id),
    dependsOn: [...linked.map((l) => l.target.id), accountDependency(row.accountId), ...(extras?.dependsOn ?? [])],
    fields, websites: hostsOf(sites, (v) => normalizedValue("website", v)), trust, checks: checksOfRow(row, module), aboutHosts, coversHosts: badgeHosts(aboutHosts, trust),
    history: hist, historyCount, historyBefore: tail.olderBefore, now,
  };
}

/**
 * The record's websites as distinct sorted hosts: `websites` in lookup's normal form (without
 * `www.`), what the record is found by; `aboutHosts` exactly as proved or named (`www.` kept),
 * for the badge's exact-host rule — a domain record of `www.x` covers `www.x`, not `x`
 * (CONTRACT "Embed badge").
 */
function hostsOf(values: readonly string[], host: (v: string) => string | null): string[] {
  return [...new Set(values.map(host).filter((h): h is string => h !== null))].sort();
}

/** The fields every public answer about a record opens with (the API record object, the signed status), in this order. */
export function baseFields(view: PublicView) {
  const { row } = view;
  return {
    verification_id: row.id,
    status: view.status,
    environment: row.environment,
    verified: view.verified,
    account: view.account,
    claim_type: row.claimType,
    subject: row.subject,
    websites: view.websites,
  };
}

/** `base` with the type's fields added after it; a type field never replaces a base field. */
export function withTypeFields<T extends Record<string, unknown>>(base: T, fields: Record<string, unknown>): T {
  return Object.assign(base, Object.fromEntries(Object.entries(fields).filter(([k]) => !Object.hasOwn(base, k))));
}

/**
 * Views of several stored records: one query for their latest history entries (never the
 * whole history: history-page.ts) and one for their links.
 */
export async function loadPublicViews(db: DbOrTx, rows: readonly RecordRow[], now = Date.now()): Promise<PublicView[]> {
  if (rows.length === 0) return [];
  const ids = rows.map((r) => r.id);
  const [history, linked, profiles] = await Promise.all([
    loadRecentHistories(db, ids),
    db.select({ recordId: recordLinks.recordId, role: recordLinks.role, target: TARGET_COLUMNS })
      .from(recordLinks)
      .innerJoin(records, eq(records.id, recordLinks.targetId))
      .where(inArray(recordLinks.recordId, ids))
      .orderBy(asc(recordLinks.role)),
    loadAccountProfiles(db, rows.map((r) => r.accountId), new Date(now)),
  ]);
  const extras = await loadViewExtras(db, rows);
  const group = <T extends { recordId: string }>(list: T[]) => {
    const m = new Map<string, T[]>();
    for (const x of list) (m.get(x.recordId) ?? m.set(x.recordId, []).get(x.recordId)!).push(x);
    return m;
  };
  const lByRecord = group(linked);
  const none: AccountProfile = NO_PROFILE;
  return rows.map((r) => {
    const h = history.get(r.id) ?? { entries: [], count: 0, olderBefore: null };
    return buildPublicView(r, h.entries, lByRecord.get(r.id) ?? [], profiles.get(r.accountId) ?? none, now, extras.get(r.id), h);
  });
}

/** What each row's claim type loads beside it (`view.viewExtras`), one call per type. */
export async function loadViewExtras(db: DbOrTx, rows: readonly Pick<RecordRow, "id" | "claimType" | "accountId" | "evidencePublic">[]) {
  const out = new Map<string, ViewExtras>();
  const byType = new Map<string, typeof rows[number][]>();
  for (const r of rows) (byType.get(r.claimType) ?? byType.set(r.claimType, []).get(r.claimType)!).push(r);
  for (const [type, list] of byType) {
    const load = claimModuleFor(type).view?.viewExtras;
    if (!load) continue;
    const got = await load(db, list.map((r) => ({ id: r.id, accountId: r.accountId, evidence: r.evidencePublic })));
    list.forEach((r, i) => out.set(r.id, got[i]!));
  }
  return out;
}

export async function loadPublicView(db: DbOrTx, row: RecordRow, now = Date.now()): Promise<PublicView> {
  return (await loadPublicViews(db, [row], now))[0]!;
}

/** The view of an issued record by id, for anyone (certificate, signed status); null when there is none. */
export async function getPublicView(db: DbOrTx, id: string, now = Date.now()): Promise<PublicView | null> {
  const row = await getPublicRecord(db, id);
  return row ? loadPublicView(db, row, now) : null;
}
