import { createPublicClient, http, type PublicClient } from "viem";
import { arbitrum, base, bsc, mainnet, optimism, polygon } from "viem/chains";
import { z } from "zod";
import { getEnv } from "@/lib/env";
import { log } from "@/lib/log/logger";
import type { EvmNetwork, WalletNetwork } from "@/lib/proofs/wallet-address";
import { found, notFound, unreachable, type SourceResult } from "./source-result";

/** The chain each network name means; an RPC that answers for another chain is not asked. */
export const CHAIN_IDS: Record<EvmNetwork, number> = {
  ethereum: mainnet.id, base: base.id, polygon: polygon.id, arbitrum: arbitrum.id, optimism: optimism.id, bsc: bsc.id,
};

const clients = new Map<string, PublicClient>();
/** URL → chain id it answered with (asked once per process; an RPC does not change chains). */
const chainOf = new Map<string, number>();

function rpcUrls(): Partial<Record<string, string>> {
  const raw = getEnv().EVM_RPC_URLS;
  return raw ? z.record(z.string(), z.url()).parse(JSON.parse(raw)) : {};
}

/** Whether `EVM_RPC_URLS` names an RPC for the network. */
export function hasEvmRpc(network: WalletNetwork): boolean {
  return Boolean(rpcUrls()[network]);
}

/** A JSON-RPC client for the network when `EVM_RPC_URLS` names one; null otherwise. */
function evmClient(network: WalletNetwork): PublicClient | null {
  const url = rpcUrls()[network];
  if (!url) return null;
  let c = clients.get(url);
  if (!c) {
    c = createPublicClient({ transport: http(url, { timeout: getEnv().RPC_TIMEOUT_MS, retryCount: 1 }) }) as PublicClient;
    clients.set(url, c);
  }
  return c;
}

class WrongChain extends Error {}

/**
 * Ask the network's RPC something, as a SourceResult: `ask` runs only once the RPC is known
 * to serve the network's chain. No RPC configured, a wrong chain, no answer in time or an
 * RPC error is `unreachable`; viem's "… not found" errors (a receipt, transaction or block
 * the chain does not have) are `not_found`. Never throws.
 */
export async function askEvm<T>(network: EvmNetwork, ask: (client: PublicClient) => Promise<T>): Promise<SourceResult<T>> {
  const client = evmClient(network);
  if (!client) return unreachable(`No RPC is configured for ${network}.`);
  try {
    await assertChain(client, network);
    return found(await ask(client));
  } catch (e) {
    if (e instanceof WrongChain) return unreachable(`${e.message} It cannot be asked until that is fixed.`);
    const name = (e as Error)?.name ?? "Error";
    if (/NotFoundError$/.test(name)) return notFound(`The ${network} RPC does not know it (${name}).`);
    return unreachable(`The ${network} RPC did not answer (${name}).`);
  }
}

/**
 * Make sure the RPC configured for `network` serves that chain (`eth_chainId`). A wrong URL
 * in EVM_RPC_URLS would otherwise check signatures against another chain's contracts and
 * issue records that say more than was checked. Throws WrongChain; RPC errors pass through.
 */
async function assertChain(client: PublicClient, network: EvmNetwork) {
  const url = rpcUrls()[network]!;
  let id = chainOf.get(url);
  if (id === undefined) {
    id = await client.getChainId();
    chainOf.set(url, id);
  }
  if (id !== CHAIN_IDS[network]) {
    log().error({ network, chain_id: id, expected_chain_id: CHAIN_IDS[network] }, `EVM_RPC_URLS: the ${network} RPC serves chain ${id}, not ${CHAIN_IDS[network]}; its answers are not used`);
    throw new WrongChain(`The RPC configured for ${network} serves chain ${id}, not ${network} (${CHAIN_IDS[network]}).`);
  }
}
