import { str, type ClaimUi, type Evidence } from "./types";

const when = (iso: unknown) => str(iso).replace("T", " ").replace(/\.\d+Z$/, " UTC");

function scope(evidence: Evidence) {
  return {
    proved: (
      <>
        One closed trade on the exchange&apos;s {str(evidence.environment)}: a {str(evidence.position)} position of{" "}
        <strong>{str(evidence.quantity)} {str(evidence.symbol)}</strong> ({str(evidence.category)}), entered at an average of {str(evidence.avg_entry_price)} and
        closed at {str(evidence.avg_exit_price)} on {when(evidence.closed_at)}, closed P&amp;L <strong>{str(evidence.closed_pnl)}</strong>
        {evidence.fees ? <> after fees</> : null}. Read at {when(evidence.checked_at)} with a read-only API key of exchange user {str(evidence.user_id)} (a{" "}
        {str(evidence.account_type)}), which was not kept; the order&apos;s {String(evidence.fills ?? "")} fill(s) add up to the closed-P&amp;L row. SHA-256 of the
        exchange&apos;s answers: <code className="break-all text-xs">{str(evidence.answers_sha256)}</code>.
      </>
    ),
    notProved: "Trading performance: this verifies one trade only — nothing about other trades, the account's balance, returns or skill, or who holds the account.",
  };
}

export const exchangeTradeTestUi: ClaimUi = { type: "exchange_verified_trade_test", scope };
export const exchangeTradeUi: ClaimUi = { type: "exchange_verified_trade", scope };
