import type { AccountProfile } from "@/lib/accounts/account-profile";

/**
 * The one trust decision (CONTRACT "Trust model"): for a record now — who is speaking,
 * whether what it states was checked, whether it still stands — and from these what each
 * public surface may say. The public view (lib/public/record/public-view.ts) carries it to the
 * certificate, signed status, record object, VC and badge; lookup, /check and the directory
 * take it from `decideTrust` for their matches. None of them recomputes it.
 */
export type Speaker = "verified_organisation" | "self_declared" | "unnamed";

export type TrustFacts = {
  environment: string;
  status: string;
  evidenceLevel: string | null;
  /** Every record this one rests on is active now (true when it rests on none). */
  partsStand: boolean;
  account: AccountProfile;
};

export type Trust = {
  speaker: Speaker;
  /** The verified organisation's legal name while it is verified; null otherwise. */
  organisationName: string | null;
  /** Checked by the service or a reviewer (not only stated by the account). */
  checked: boolean;
  /** Active now, and every part it rests on is active. */
  stands: boolean;
  /** The record's `verified`: live, checked and standing. Says nothing about the speaker. */
  verified: boolean;
  /**
   * What a lookup match contributes (CONTRACT "What a public yes requires"): `verified` —
   * checked, standing, by a verified organisation; `checked` — checked and standing, by an
   * account that is not one; `attested` — only stated; null — not standing (never a yes).
   */
  lookup: "verified" | "checked" | "attested" | null;
};

export function speakerOf(account: AccountProfile): Speaker {
  if (account.organisation?.status === "verified" && account.name_verified) return "verified_organisation";
  return account.name ? "self_declared" : "unnamed";
}

export function decideTrust(f: TrustFacts): Trust {
  const speaker = speakerOf(f.account);
  const checked = f.evidenceLevel !== null && f.evidenceLevel !== "participant_attested";
  const stands = f.status === "active" && f.partsStand;
  const live = f.environment === "live";
  const lookup = !live || !stands ? null : !checked ? "attested" : speaker === "verified_organisation" ? "verified" : "checked";
  return {
    speaker,
    organisationName: speaker === "verified_organisation" ? f.account.organisation!.legal_name : null,
    checked, stands, verified: live && checked && stands, lookup,
  };
}

/** The order lookup results rank in: the strongest any match earns is the answer's `result`. */
export const LOOKUP_RANK = { verified: 3, checked: 2, attested: 1 } as const;

/**
 * The one coverage rule (CONTRACT "Embed badge"; issue 38, item 13): the exact hosts a record
 * is about — the hosts it proved or names, as proved (`www.` kept: lib/public/record/public-view.ts
 * `provedHostsOf`), and the domains its account proves now (`verified_domains`: active live
 * records of a type that proves an account domain — for a verified organisation these include
 * the domains the reviewer confirmed). A proof of `x` covers `x` and `www.x`; a proof of
 * `www.x` covers `www.x` only, never `x` or another subdomain. Hosts are compared as the
 * browser sees them (A-labels, lower case). The badge (`badgeHosts`), badge sightings, the
 * certificate's "you came from elsewhere" notice and the portal's embed panel all use it.
 */
export function recordHosts(provedHosts: readonly string[], account: Pick<AccountProfile, "verified_domains">): string[] {
  const hosts = new Set<string>();
  for (const h of [...provedHosts, ...account.verified_domains]) {
    const host = asciiHost(h);
    if (!host) continue;
    hosts.add(host);
    if (!host.startsWith("www.")) hosts.add(`www.${host}`);
  }
  return [...hosts].sort();
}

/**
 * The hosts a page may show a record's badge green (or, for an account whose name nobody
 * verified, amber) on: `recordHosts` while the record is verified (live, checked, standing);
 * empty otherwise, or for a record that names no website and whose account has no verified
 * domains — its badge is neutral everywhere.
 */
export function badgeHosts(aboutHosts: readonly string[], trust: Pick<Trust, "verified">): string[] {
  return trust.verified ? [...aboutHosts] : [];
}

/** A host name as a browser's `location.hostname` has it (WHATWG URL: lower case, IDN as A-labels, no trailing dot); null if it is none. */
function asciiHost(h: string): string | null {
  const bare = h.trim().replace(/\.$/, "");
  if (!bare || /[\s/\\@?#:]/.test(bare)) return null;
  try {
    return new URL(`https://${bare}`).hostname || null;
  } catch {
    return null;
  }
}

