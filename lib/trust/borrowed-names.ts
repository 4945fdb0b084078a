import { and, eq, inArray } from "drizzle-orm";
import { organisations } from "@/drizzle/schema";
import type { AccountProfile } from "@/lib/accounts/account-profile";
import { legalNameKey } from "@/lib/connectors/legal-name";
import type { DbOrTx } from "@/lib/db/client";
import type { Trust } from "./decide";

type Row = { id: string; accountId: string; subject: string; account: AccountProfile; trust: Pick<Trust, "speaker"> };

/**
 * Records that go under a verified organisation's exact name without being it (issue 38, item
 * 12): a record whose account is not a verified organisation, and whose subject or the
 * account's self-declared name is, normalised, the legal name of a verified organisation of
 * another account. Answers, per record id, that organisation's legal name: the surface says
 * "not this organisation". A verified organisation's own records are never marked — who speaks
 * for them is checked. One index probe (organisations.name_key) for the whole page.
 */
export async function borrowedNames(db: DbOrTx, rows: readonly Row[]): Promise<Map<string, string>> {
  const keysOf = (r: Row) => [r.subject, r.account.name].filter((n): n is string => typeof n === "string" && n.trim() !== "").map(legalNameKey);
  const open = rows.filter((r) => r.trust.speaker !== "verified_organisation");
  const keys = [...new Set(open.flatMap(keysOf))].filter((k) => k !== "");
  const out = new Map<string, string>();
  if (keys.length === 0) return out;
  const found = await db.select({ accountId: organisations.accountId, nameKey: organisations.nameKey, legalName: organisations.legalName })
    .from(organisations)
    .where(and(inArray(organisations.nameKey, keys), eq(organisations.status, "verified")));
  for (const r of open) {
    const mine = new Set(keysOf(r));
    const org = found.find((o) => o.accountId !== r.accountId && mine.has(o.nameKey));
    if (org) out.set(r.id, org.legalName);
  }
  return out;
}
