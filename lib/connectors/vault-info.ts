import { isAddress } from "viem";
import { z } from "zod";
import { getEnv } from "@/lib/env";
import { postJson, type HttpAnswer, type HttpSource } from "./http";
import { found, notFound, unreachable, type SourceResult } from "./source-result";

/*
 * The perpetual exchange's public info API (protocols.md §3): `POST {VAULT_INFO_URL}` with a
 * JSON body `{type, …}`, no authentication. What exchange-control records snapshot at
 * approval: a builder's approved maximum fee, a vault's public details, a wallet's role.
 * Addresses are sent in lower case (as the exchange's own SDK sends them). Never throws.
 */

/** Where the info API is and how long one call may take: VAULT_INFO_URL, VAULT_INFO_TIMEOUT_MS. */
export function vaultInfoApi(): HttpSource {
  const env = getEnv();
  return { baseUrl: env.VAULT_INFO_URL, timeoutMs: env.VAULT_INFO_TIMEOUT_MS };
}

/** A vault's public snapshot: what a depositor can see on the exchange, nothing about any follower. */
export type VaultSnapshot = {
  vaultAddress: string;
  name: string;
  leader: string;
  /** Followers other than the leader. */
  followers: number;
  allowDeposits: boolean;
  isClosed: boolean;
};

export type UserRole =
  | { role: "missing" | "user" | "vault" }
  | { role: "agent"; user: string }
  | { role: "subAccount"; master: string };

const address = z.string().refine((a) => isAddress(a, { strict: false }), "not an address").transform((a) => a.toLowerCase());

const vaultAnswer = z.object({
  name: z.string().max(1000),
  vaultAddress: address,
  leader: address,
  followers: z.array(z.object({ user: z.string() })).max(100_000),
  allowDeposits: z.boolean(),
  isClosed: z.boolean(),
});

const roleAnswer = z.union([
  z.object({ role: z.enum(["missing", "user", "vault"]) }),
  z.object({ role: z.literal("agent"), data: z.object({ user: address }) }),
  z.object({ role: z.literal("subAccount"), data: z.object({ master: address }) }),
]);

/** The failure modes every info call shares; `null` when the answer is a 200 to read. */
function failed(answer: HttpAnswer): SourceResult<never> | null {
  if (answer.kind === "failed") return unreachable(`The exchange's info API ${answer.reason}.`);
  const { status } = answer;
  if (status === 429) return unreachable("The exchange's info API is rate limiting requests.");
  if (status === 422) {
    const said = answer.bodyText ? `: ${answer.bodyText.replace(/\s+/g, " ").slice(0, 120)}` : "";
    return unreachable(`The exchange's info API refused the request (HTTP 422${said}).`);
  }
  if (status !== 200) return unreachable(`The exchange's info API answered HTTP ${status}.`);
  if (answer.bodyError) return unreachable(`The exchange's info API's answer could not be read: ${answer.bodyError}.`);
  return null;
}

const lower = (a: string) => a.toLowerCase();

/**
 * The maximum builder fee `user` approved for `builder`, in tenths of a basis point (10 =
 * 0.01 %); 0 when none is approved — the API's own answer, so `found`.
 */
export async function maxBuilderFee(user: string, builder: string, api: HttpSource = vaultInfoApi()): Promise<SourceResult<number>> {
  const answer = await postJson(api, { type: "maxBuilderFee", user: lower(user), builder: lower(builder) });
  const bad = failed(answer);
  if (bad) return bad;
  const fee = (answer as { body: unknown }).body;
  if (typeof fee !== "number" || !Number.isSafeInteger(fee) || fee < 0) return unreachable("The exchange's info API answered no fee.");
  return found(fee);
}

/** A vault's public details; `not_found` when the exchange has no such vault (it answers `null`). */
export async function vaultDetails(vault: string, api: HttpSource = vaultInfoApi()): Promise<SourceResult<VaultSnapshot>> {
  const answer = await postJson(api, { type: "vaultDetails", vaultAddress: lower(vault) });
  const bad = failed(answer);
  if (bad) return bad;
  const body = (answer as { body: unknown }).body;
  if (body === null) return notFound(`The exchange has no vault ${lower(vault)}.`);
  const v = vaultAnswer.safeParse(body);
  if (!v.success) return unreachable("The exchange's info API's answer is not a vault.");
  if (v.data.vaultAddress !== lower(vault)) return unreachable(`The exchange's info API answered for vault ${v.data.vaultAddress}, not ${lower(vault)}.`);
  return found({
    vaultAddress: v.data.vaultAddress, name: v.data.name, leader: v.data.leader,
    followers: v.data.followers.filter((f) => f.user !== "Leader" && lower(f.user) !== v.data.leader).length,
    allowDeposits: v.data.allowDeposits, isClosed: v.data.isClosed,
  });
}

/** What the exchange knows `user` as: a plain user, a vault, an agent (API wallet) of another user, a sub-account, or nothing. */
export async function userRole(user: string, api: HttpSource = vaultInfoApi()): Promise<SourceResult<UserRole>> {
  const answer = await postJson(api, { type: "userRole", user: lower(user) });
  const bad = failed(answer);
  if (bad) return bad;
  const r = roleAnswer.safeParse((answer as { body: unknown }).body);
  if (!r.success) return unreachable("The exchange's info API's answer is not a role.");
  const d = r.data;
  if (d.role === "agent") return found({ role: "agent", user: d.data.user });
  if (d.role === "subAccount") return found({ role: "subAccount", master: d.data.master });
  return found({ role: d.role });
}

/** A fee in tenths of a basis point as a percent, as the exchange writes it ("0.01%" for 10). */
export function feePercent(tenthsOfBasisPoint: number): string {
  return `${(tenthsOfBasisPoint / 1000).toFixed(4).replace(/\.?0+$/, "")}%`;
}
