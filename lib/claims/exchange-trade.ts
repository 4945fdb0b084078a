import { eq } from "drizzle-orm";
import { z } from "zod";
import { accounts } from "@/drizzle/schema";
import {
  answersSha256, closedPnlOf, executionsOf, queryApiKey, type ClosedPnl, type Credentials, type ExchangeSource, type Execution,
} from "@/lib/connectors/exchange";
import { getEnv } from "@/lib/env";
import type { ErrorCode } from "@/lib/http/errors";
import { fieldErrors } from "@/lib/http/validation";
import { NO_CONTROL, NO_HIDDEN, noControl, noHiddenText, type EvidenceLevel } from "@/lib/record-model/schemas";
import { onlyLevels, refuseSourceFields } from "./field-rules";
import type { CheckOutcome, ClaimContext, ClaimModule } from "./types";

/*
 * Exchange trade records (spec 2.7; CONTRACT "Exchange trade records"; issue 17): one closed
 * trade, reconciled live from the exchange with a read-only API key the service never keeps.
 * `exchange_verified_trade_test` — the sandbox pilot against the exchange's testnet;
 * `exchange_verified_trade` — live, against mainnet, only for accounts an admin enabled.
 * `api_key` and `api_secret` are the type's secret fields: the check uses them in memory;
 * the pipeline strips them (and their values) from everything it stores.
 */

export const MAX_WINDOW_MS = 7 * 86_400_000;
/** A pending submission (the exchange could not be reached) is rejected after this: its key was not kept. */
export const PENDING_TTL_MS = 24 * 3600_000;

const timestamp = z.iso.datetime({ offset: true });
const tradeEvidence = z
  .strictObject({
    environment: z.enum(["testnet", "mainnet"]).describe("The exchange environment the key belongs to: testnet for the test pilot, mainnet for live records."),
    api_key: z.string().min(1).max(200).describe("A read-only API key (never kept)."),
    api_secret: z.string().min(1).max(200).describe("Its secret (never kept)."),
    category: z.enum(["linear", "inverse"]).describe("Derivatives category of the trade."),
    order_id: z.string().min(1).max(100).regex(noControl, NO_CONTROL).regex(noHiddenText, NO_HIDDEN).describe("The closing order's id."),
    start_time: timestamp.describe("Start of the window the trade closed in (RFC 3339)."),
    end_time: timestamp.describe("End of that window; at most 7 days after start_time."),
  })
  .meta({ id: "ExchangeTradeEvidence" });
type TradeEvidence = z.infer<typeof tradeEvidence>;

const fail = (code: ErrorCode, param: string, message: string): CheckOutcome => ({ kind: "fail", error: { code, param, message } });

const num = (s: string | undefined) => (s === undefined || s === "" ? NaN : Number(s));
const close = (a: number, b: number, rel = 1e-6, abs = 1e-8) => Math.abs(a - b) <= Math.max(abs, rel * Math.max(Math.abs(a), Math.abs(b)));

/**
 * Whether the fills add up to the closed-P&L row (within the exchange's rounding): the same
 * side, the quantity, the average exit price, and the closed P&L from entry, exit and fees
 * (linear: quantity × price difference; inverse: quantity × difference of reciprocals, in coin).
 * Without fee fields the P&L may differ from the gross by at most 0.2 % of the entry value.
 */
export function reconcile(row: ClosedPnl, fills: readonly Execution[], category: "linear" | "inverse"): string | null {
  const closing = fills.filter((f) => f.orderId === row.orderId && (f.execType === "Trade" || f.execType === "BustTrade"));
  if (closing.length === 0) return "The exchange lists no fills for this order.";
  if (closing.some((f) => f.side !== row.side)) return "The fills are not all on the closing side.";
  const qty = closing.reduce((s, f) => s + num(f.execQty), 0);
  const size = num(row.closedSize);
  if (!close(qty, size, 1e-9)) return `The fills add up to ${qty}, the closed P&L row says ${row.closedSize}.`;
  const exit = closing.reduce((s, f) => s + num(f.execPrice) * num(f.execQty), 0) / qty;
  if (!close(exit, num(row.avgExitPrice))) return `The fills' average price is ${exit}, the row's exit price ${row.avgExitPrice}.`;
  const entry = num(row.avgEntryPrice);
  const dir = row.side === "Sell" ? 1 : -1; // closing with a sell ends a long position
  const gross = category === "linear" ? (num(row.avgExitPrice) - entry) * size * dir : size * (1 / entry - 1 / num(row.avgExitPrice)) * dir;
  const r = row as ClosedPnl & { openFee?: string; closeFee?: string; cumEntryValue?: string };
  const pnl = num(row.closedPnl);
  if (r.openFee !== undefined && r.closeFee !== undefined) {
    const net = gross - num(r.openFee) - num(r.closeFee);
    if (!close(pnl, net, 1e-6, 1e-6)) return `The closed P&L ${row.closedPnl} is not entry, exit and fees (${net.toFixed(8)}).`;
  } else if (Math.abs(pnl - gross) > 0.002 * Math.abs(num(r.cumEntryValue ?? String(entry * size)))) {
    return `The closed P&L ${row.closedPnl} is further from entry and exit (${gross.toFixed(8)}) than fees explain.`;
  }
  if (![entry, pnl, size].every(Number.isFinite)) return "The exchange's numbers could not be read.";
  return null;
}

const iso = (ms: string) => new Date(Number(ms)).toISOString();

function exchangeTrade(o: { type: string; environment: "testnet" | "mainnet"; prs: "sandbox" | "live"; level: EvidenceLevel }): ClaimModule {
  const levels: readonly EvidenceLevel[] = [o.level];
  const source = (): ExchangeSource => {
    const env = getEnv();
    return { baseUrl: o.environment === "testnet" ? env.EXCHANGE_TESTNET_URL : env.EXCHANGE_URL, timeoutMs: env.EXCHANGE_TIMEOUT_MS };
  };
  const unreachable = (input: { evidence?: Record<string, unknown> }, reason: string): CheckOutcome => ({
    kind: "review", evidenceLevel: "evidence_verified",
    reason: `${reason} The API key was not kept, so nobody can check this again: submit it again later. This submission is closed after 24 hours.`,
    publicEvidence: { environment: input.evidence?.environment, category: input.evidence?.category, order_id: input.evidence?.order_id, start_time: input.evidence?.start_time, end_time: input.evidence?.end_time, unreachable: true },
  });

  return {
    type: o.type,
    docs: {
      describe:
        `\`${o.type}\`: \`{environment: "${o.environment}", api_key, api_secret, category, order_id, start_time, end_time}\` (schema ` +
        "ExchangeTradeEvidence): one closed trade, read from the exchange with a read-only key that is never kept and reconciled " +
        `(closed P&L row and fills). ${o.prs === "sandbox" ? "Sandbox keys only: the test pilot against the exchange's testnet." : "Live keys of accounts an admin enabled."}`,
      evidenceSchema: tradeEvidence,
      errors: ["credentials_not_read_only", "credentials_invalid", "window_too_long", "trade_not_found", "environment_mismatch",
        ...(o.prs === "live" ? ["live_exchange_verification_disabled" as const] : [])],
      example: {
        summary: `One ${o.environment} trade (201)`,
        value: {
          subject: "BTCUSDT long closed 2026-11-20", claim_type: o.type, claim: "Acme Trading Ltd closed a BTCUSDT long at a profit.",
          evidence: {
            environment: o.environment, api_key: "<read-only API key>", api_secret: "<its secret>", category: "linear",
            order_id: "5a373bfe-188d-4913-9c81-d57ab5be8068", start_time: "2026-11-19T00:00:00Z", end_time: "2026-11-21T00:00:00Z",
          },
        },
      },
    },
    request: {
      levels,
      secrets: ["api_key", "api_secret"],
      form: {
        label: o.prs === "sandbox" ? "A closed exchange trade (test pilot, exchange testnet)" : "A closed exchange trade",
        summary:
          `One closed derivatives trade, read from the exchange${o.prs === "sandbox" ? "'s testnet, in the sandbox only," : ""} with a read-only ` +
          "API key that is used once and never kept.",
        evidenceTitle: "The trade",
        fields: {
          subject: { help: "The trade as the certificate names it.", placeholder: "BTCUSDT long closed 2026-11-20" },
          "evidence.environment": { label: "Exchange environment", default: o.environment, options: { testnet: "Testnet (the test pilot)", mainnet: "Mainnet (real trading)" } },
          "evidence.api_key": { label: "Read-only API key", help: "A key that can only read: one that can trade, withdraw or transfer is refused. Never kept." },
          "evidence.api_secret": { label: "API secret", help: "Used once to read the trade; never stored, logged or shown." },
          "evidence.category": { label: "Category", default: "linear", options: { linear: "Linear (USDT or USDC margined)", inverse: "Inverse (coin margined)" } },
          "evidence.order_id": { label: "Closing order id", help: "The id of the order that closed the trade." },
          "evidence.start_time": { label: "Window start (UTC)", help: "A time before the trade closed." },
          "evidence.end_time": { label: "Window end (UTC)", help: "A time after it closed; at most 7 days after the start." },
        },
      },
      validate(input) {
        const evidence = input.evidence ?? {};
        const parsed = tradeEvidence.safeParse(evidence);
        if (!parsed.success) {
          const first = fieldErrors(parsed.error, evidence, "evidence")[0]!;
          // Never echo what was sent for a secret field.
          return first.param === "evidence.api_key" || first.param === "evidence.api_secret" ? { ...first, message: `${first.param} must be a string of 1 to 200 characters.` } : first;
        }
        const e = parsed.data;
        if (e.environment !== o.environment) {
          return { code: "environment_mismatch", param: "evidence.environment", message: `${o.type} takes ${o.environment} keys only.` };
        }
        const span = Date.parse(e.end_time) - Date.parse(e.start_time);
        if (span <= 0) return { code: "invalid_value", param: "evidence.end_time", message: "end_time must be after start_time." };
        if (span > MAX_WINDOW_MS) return { code: "window_too_long", param: "evidence.end_time", message: "The window from start_time to end_time is at most 7 days (the exchange's limit)." };
        return refuseSourceFields(input, o.type) ?? onlyLevels(input, levels, o.type);
      },
    },
    async check(input, ctx): Promise<CheckOutcome> {
      if (ctx.auth.environment !== o.prs) {
        return fail("environment_mismatch", "claim_type", o.prs === "sandbox"
          ? `${o.type} is the test pilot: use a sandbox API key of this service (a live key makes exchange_verified_trade records).`
          : `${o.type} issues live records: use a live API key of this service (the sandbox has exchange_verified_trade_test).`);
      }
      if (o.prs === "live" && !(await liveEnabled(ctx))) {
        return fail("live_exchange_verification_disabled", "claim_type", "Live exchange verification is not enabled for this account; an admin enables it.");
      }
      const e: TradeEvidence = tradeEvidence.parse(input.evidence ?? {});
      const creds: Credentials = { apiKey: e.api_key, apiSecret: e.api_secret };
      const src = source();
      const key = await queryApiKey(src, creds);
      if (key.kind === "unreachable") return unreachable(input, key.reason);
      if (key.kind === "refused") {
        const hint = o.environment === "testnet" ? " The test pilot takes testnet keys only: a mainnet (production) key is not known to the testnet." : "";
        return fail("credentials_invalid", "evidence.api_key", `${key.reason}${hint}`);
      }
      if (!key.result.readOnly || key.result.canWithdraw || key.result.canTransfer) {
        return fail("credentials_not_read_only", "evidence.api_key",
          "This API key can trade, withdraw or transfer: create a read-only key without withdrawal or transfer permission. Nothing was kept.");
      }
      const window = { category: e.category, orderId: e.order_id, startMs: Date.parse(e.start_time), endMs: Date.parse(e.end_time) };
      const pnl = await closedPnlOf(src, creds, window);
      if (pnl.kind === "unreachable") return unreachable(input, pnl.reason);
      if (pnl.kind === "refused") return fail("credentials_invalid", "evidence.api_key", pnl.reason);
      const row = pnl.result.row;
      if (!row) return fail("trade_not_found", "evidence.order_id", `The exchange has no closed ${e.category} trade of order ${e.order_id} between start_time and end_time.`);
      const fills = await executionsOf(src, creds, window);
      if (fills.kind === "unreachable") return unreachable(input, fills.reason);
      if (fills.kind === "refused") return fail("credentials_invalid", "evidence.api_key", fills.reason);
      const problem = reconcile(row, fills.result.rows, e.category);
      if (problem) return fail("trade_not_found", "evidence.order_id", `The exchange's answers for this order do not reconcile: ${problem}`);
      const times = fills.result.rows.map((f) => Number(f.execTime)).filter(Number.isFinite).sort((a, b) => a - b);
      const r = row as ClosedPnl & { openFee?: string; closeFee?: string; leverage?: string };
      return {
        kind: "issue", evidenceLevel: o.level,
        publicEvidence: {
          environment: e.environment, category: e.category, order_id: row.orderId, symbol: row.symbol,
          position: row.side === "Sell" ? "long" : "short", closing_side: row.side, quantity: row.closedSize,
          avg_entry_price: row.avgEntryPrice, avg_exit_price: row.avgExitPrice, closed_pnl: row.closedPnl,
          ...(r.openFee !== undefined && r.closeFee !== undefined ? { fees: { open: r.openFee, close: r.closeFee } } : {}),
          fills: times.length, first_fill_at: times.length ? new Date(times[0]!).toISOString() : null,
          closed_at: iso(row.createdTime), user_id: key.result.userId, account_type: key.result.isMaster ? "master" : "sub-account",
          answers_sha256: answersSha256([key.raw, ...pnl.result.raws, ...fills.result.raws]),
          start_time: e.start_time, end_time: e.end_time, checked_at: ctx.now.toISOString(),
        },
      };
    },
    review: {
      beforeApprove: () => "Nothing can be confirmed: the exchange was not reached and the API key was not kept. Reject it; the customer submits again.",
      pendingExpiry: { afterMs: PENDING_TTL_MS, reason: "Closed after 24 hours: the exchange was not reached and the API key was not kept. Submit again." },
    },
    view: {
      /** The closed trade, read from the exchange's API with the customer's read-only key and reconciled with its fills. */
      facts: () => [{ fact: "trade", by: "source", source: `exchange API (${o.environment})` }],
    },
  };
}

async function liveEnabled(ctx: ClaimContext): Promise<boolean> {
  const [a] = await ctx.db.select({ on: accounts.liveExchangeVerification }).from(accounts).where(eq(accounts.id, ctx.auth.accountId));
  return a?.on === true;
}

export const exchangeVerifiedTradeTest = exchangeTrade({ type: "exchange_verified_trade_test", environment: "testnet", prs: "sandbox", level: "source_verified" });
export const exchangeVerifiedTrade = exchangeTrade({ type: "exchange_verified_trade", environment: "mainnet", prs: "live", level: "source_verified" });
