import { claimModuleFor } from "@/lib/claims/registry";
import type { RecordValueRow } from "@/lib/record-model/record-values";
import { domainKeySkeleton, nameKey, registrableDomain, skeletonOf, type WatchKind } from "./watch-value";

/** One value of a record, as a watch of `kind` compares it: `key` its normal form, `skeleton` for names and domains. */
export type WatchedValue = { kind: WatchKind; key: string; skeleton: string | null; value: string; field: string };

type Source = { claimType: string; subject: string; evidencePublic: Record<string, unknown> | null };

/**
 * The values of an issued record that watches compare with, all from its claim type's
 * definition (nothing here branches on a type): its lookup values (`view.lookupValues`, already
 * normalised in `values`: IBANs, wallets, and the registrable domain of each website and listing
 * link) and its names and LEIs (`view.namedValues`); and the name of the account that issued it.
 */
export function recordWatchValues(row: Source, values: readonly RecordValueRow[], accountName: string | null = null): WatchedValue[] {
  const out = new Map<string, WatchedValue>();
  const add = (v: WatchedValue) => out.has(`${v.kind} ${v.key}`) || out.set(`${v.kind} ${v.key}`, v);
  for (const v of values) {
    if (v.kind === "iban" || v.kind === "wallet") add({ kind: v.kind, key: v.value, skeleton: null, value: v.value, field: v.field });
    else if (v.kind === "website" || v.kind === "listing_url") {
      const d = registrableDomain(v.value);
      if (d) add({ kind: "domain", key: d, skeleton: domainKeySkeleton(d), value: v.value, field: v.field });
    }
  }
  const named = [
    ...(claimModuleFor(row.claimType).view?.namedValues?.(row.subject, row.evidencePublic ?? {}) ?? []),
    // Whoever the record says is speaking: an account that calls itself by a watched name (the
    // certificate's "an account calling itself …") is the commonest copy of all.
    ...(accountName?.trim() ? [{ kind: "name" as const, value: accountName, field: "account.name" }] : []),
  ];
  for (const n of named) {
    if (n.kind === "name") {
      const key = nameKey(n.value);
      if (key) add({ kind: "name", key, skeleton: skeletonOf(key), value: n.value, field: n.field });
    } else {
      const key = n.value.replace(/\s+/g, "").toUpperCase();
      if (key) add({ kind: "lei", key, skeleton: null, value: n.value, field: n.field });
    }
  }
  return [...out.values()];
}
