import { formatEther } from "viem";

/**
 * The agent view's spend ledger (`agent.payments: {count, totals: [{network, asset, value}]}`,
 * `value` the native amount in wei as a decimal string, built by agent_authorization's public
 * fields) as lines the owner's page shows. Anything of another shape shows nothing rather than
 * something wrong.
 */
export type SpendSummary = { count: number; totals: { label: string; amount: string }[] };

const obj = (v: unknown): Record<string, unknown> | null => (typeof v === "object" && v !== null && !Array.isArray(v) ? { ...v } : null);

export function spendSummary(v: unknown): SpendSummary | null {
  const p = obj(v);
  if (!p || typeof p.count !== "number" || !Number.isInteger(p.count) || p.count < 0) return null;
  const totals = (Array.isArray(p.totals) ? p.totals : []).flatMap((t) => {
    const e = obj(t);
    if (!e || typeof e.network !== "string" || typeof e.asset !== "string" || typeof e.value !== "string" || !/^\d+$/.test(e.value)) return [];
    return [{ label: `${e.network} · ${e.asset}`, amount: `${formatEther(BigInt(e.value))} ${e.asset} (${e.value} wei)` }];
  });
  return { count: p.count, totals };
}
