/**
 * The layer order of lib/ (docs/architecture.md), lowest first: a folder's band, by its path.
 * A module imports from its own band or lower ones; `upwardImports` lists the runtime imports
 * that run the other way.
 */
import { importGraph } from "./import-graph";

export const BANDS: readonly { name: string; folders: readonly string[] }[] = [
  { name: "infrastructure", folders: ["lib/db", "lib/env.ts", "lib/ids.ts", "lib/log", "lib/http", "lib/outbox", "lib/mail", "lib/audit", "lib/notices", "lib/signing", "lib/tlog", "lib/forms", "lib/format", "lib/cache", "lib/docs"] },
  { name: "sources", folders: ["lib/connectors", "lib/proofs", "lib/idempotency"] },
  { name: "domain", folders: ["lib/record-model", "lib/claims", "lib/challenges", "lib/files", "lib/accounts", "lib/agents", "lib/mandates", "lib/webhooks", "lib/auth"] },
  { name: "trust", folders: ["lib/trust"] },
  { name: "public", folders: ["lib/public"] },
  { name: "writes", folders: ["lib/records", "lib/watches", "lib/reports"] },
  { name: "staff", folders: ["lib/staff", "lib/reviews", "lib/organisations"] },
  { name: "operations", folders: ["lib/server", "lib/admin", "lib/openapi"] },
];

/** The band index of a file under lib/ (its path from the repository root), or -1 for one no band names. */
export function bandOf(rel: string): number {
  return BANDS.findIndex((b) => b.folders.some((f) => rel === f || rel.startsWith(f + "/")));
}

/** Every runtime import in lib/ (paths from the repository root) whose target's band is higher than its importer's, as "from -> to". */
export function upwardImports(root: string): string[] {
  const out: string[] = [];
  for (const [from, tos] of importGraph(root, "lib")) {
    for (const to of tos) if (bandOf(to) > bandOf(from)) out.push(`${from} -> ${to}`);
  }
  return out.sort();
}

/** Files of lib/ in no band: a new folder must be placed in the order before it is used. */
export function unplaced(root: string): string[] {
  return [...importGraph(root, "lib").keys()].filter((f) => bandOf(f) < 0).sort();
}
