/**
 * The agent view's spend ledger (`agent.payments`: the payments that cite the agent, counted
 * and summed per network and asset), as lines the owner's page shows. Read defensively: the
 * ledger is built elsewhere (the agent's public fields); anything absent or of another shape
 * shows nothing rather than something wrong. Accepts the totals as a list of
 * `{network, asset, amount | value | total | sum, unit?}` or as a map network → asset → amount.
 */
export type SpendSummary = { count: number; totals: { label: string; amount: string }[] };

const obj = (v: unknown): Record<string, unknown> | null => (typeof v === "object" && v !== null && !Array.isArray(v) ? (v as Record<string, unknown>) : null);
const text = (v: unknown) => (typeof v === "string" || (typeof v === "number" && Number.isFinite(v)) ? String(v) : "");
const AMOUNT_KEYS = ["amount", "total", "sum", "value", "value_wei", "total_wei"] as const;

function fromEntry(t: Record<string, unknown>): { label: string; amount: string } | null {
  const key = AMOUNT_KEYS.find((k) => text(t[k]) !== "");
  if (!key) return null;
  const asset = text(t.asset);
  const unit = text(t.unit) || (key.endsWith("_wei") || (!asset && key === "value") ? "wei" : "");
  const label = [text(t.network), asset || (unit === "wei" ? "native coin" : "")].filter(Boolean).join(" · ") || "—";
  return { label, amount: unit ? `${text(t[key])} ${unit}` : text(t[key]) };
}

export function spendSummary(v: unknown): SpendSummary | null {
  const p = obj(v);
  if (!p || typeof p.count !== "number" || !Number.isInteger(p.count) || p.count < 0) return null;
  const raw = p.totals ?? p.sums ?? p.by_network;
  let totals: SpendSummary["totals"] = [];
  if (Array.isArray(raw)) {
    totals = raw.flatMap((t) => {
      const e = obj(t) && fromEntry(obj(t)!);
      return e ? [e] : [];
    });
  } else if (obj(raw)) {
    for (const [network, assets] of Object.entries(obj(raw)!)) {
      if (text(assets)) totals.push({ label: network, amount: text(assets) });
      else for (const [asset, amount] of Object.entries(obj(assets) ?? {})) if (text(amount)) totals.push({ label: `${network} · ${asset}`, amount: text(amount) });
    }
  }
  return { count: p.count, totals };
}
