import { accountDependency } from "@/lib/accounts/account-profile";
import { provesAccountDomain } from "@/lib/claims/registry";
import type { RecordBundle } from "./insert-record-bundle";

/**
 * The cache keys (status-cache.ts) new records move besides their own, none of which a
 * cached view could know yet: the records they rest on, whose views may show what rests on
 * them (an agent's spend ledger lists the payments citing it), and for an issued live record
 * that proves an account domain, its account (who the account's records say is speaking).
 * The writer notifies them with the write and drops them locally once it commits.
 */
export function movedByNewRecords(bundles: readonly Pick<RecordBundle, "row" | "links">[]): string[] {
  const moved = new Set<string>();
  for (const { row, links } of bundles) {
    for (const l of links ?? []) moved.add(l.targetId);
    if (row.environment === "live" && row.status === "active" && provesAccountDomain(row.claimType)) {
      moved.add(accountDependency(row.accountId));
    }
  }
  return [...moved];
}
