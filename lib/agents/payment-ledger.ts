import { and, eq, inArray } from "drizzle-orm";
import { recordLinks, records } from "@/drizzle/schema";
import type { DbOrTx } from "@/lib/db/client";
import { isIssued } from "@/lib/record-model/effective-status";
import { EVM_NETWORKS, NATIVE_COIN, type EvmNetwork } from "@/lib/proofs/wallet-address";
import { AGENT_RECORD_ROLE } from "./agent-link";

/** What the payments citing an agent add up to: how many, and their native value per network (wei, decimal string). */
export type PaymentLedger = { count: number; totals: { network: EvmNetwork; asset: string; value: string }[] };

/** A ledger and what it read: the ids of every record citing the agent, whatever their status. */
export type LedgerOf = { ledger: PaymentLedger; citing: string[] };

const WEI = /^\d{1,78}$/;
const isAttributed = (link: unknown) =>
  typeof link === "object" && link !== null && (link as { attribution?: unknown }).attribution === "agent_wallet";
const isNetwork = (v: unknown): v is EvmNetwork => typeof v === "string" && (EVM_NETWORKS as readonly string[]).includes(v);

/**
 * The spend ledger of each agent record: the payments that cite it (record_links, role
 * agent_record), were sent from one of its wallets (`agent_link.attribution: agent_wallet`;
 * a payment that only cites the agent — attribution `cited`, or recorded before attribution
 * existed — is not its spend) and were issued and still stand for what they say — not revoked, not
 * superseded (suspended and expired ones count: the transaction happened) — each transaction
 * once however many records name it, summed per network in its native coin. Amounts are
 * added up, never compared with the mandate: the verifier does that. `citing` names every
 * record citing the agent, pending ones included, so a cached view of the agent is dropped
 * when any of them is issued or changes status.
 */
export async function loadPaymentLedgers(db: DbOrTx, agentIds: readonly string[]): Promise<Map<string, LedgerOf>> {
  const out = new Map<string, LedgerOf>();
  for (const id of agentIds) out.set(id, { ledger: { count: 0, totals: [] }, citing: [] });
  if (agentIds.length === 0) return out;
  const rows = await db
    .select({ agentId: recordLinks.targetId, id: records.id, status: records.status, evidence: records.evidencePublic })
    .from(recordLinks)
    .innerJoin(records, eq(records.id, recordLinks.recordId))
    .where(and(eq(recordLinks.role, AGENT_RECORD_ROLE), inArray(recordLinks.targetId, [...new Set(agentIds)])));
  const sums = new Map<string, { seen: Set<string>; wei: Map<EvmNetwork, bigint> }>();
  for (const r of rows) {
    out.get(r.agentId)!.citing.push(r.id);
    if (!isIssued(r.status) || r.status === "revoked" || r.status === "superseded") continue;
    const { network, value, tx_hash: tx, agent_link: link } = r.evidence;
    // Only the agent's own payments (sent from one of its wallets) are its spend; a payment that merely cites it is not.
    if (!isAttributed(link)) continue;
    if (!isNetwork(network) || typeof value !== "string" || !WEI.test(value) || typeof tx !== "string") continue;
    const s = sums.get(r.agentId) ?? sums.set(r.agentId, { seen: new Set(), wei: new Map() }).get(r.agentId)!;
    const key = `${network}:${tx.toLowerCase()}`;
    if (s.seen.has(key)) continue;
    s.seen.add(key);
    s.wei.set(network, (s.wei.get(network) ?? 0n) + BigInt(value));
  }
  for (const [agentId, s] of sums) {
    const totals = EVM_NETWORKS.filter((n) => s.wei.has(n)).map((n) => ({ network: n, asset: NATIVE_COIN[n], value: s.wei.get(n)!.toString() }));
    out.get(agentId)!.ledger = { count: s.seen.size, totals };
  }
  return out;
}
