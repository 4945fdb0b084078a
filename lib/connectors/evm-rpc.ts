import { createPublicClient, http, type PublicClient } from "viem";
import { z } from "zod";
import { getEnv } from "@/lib/env";
import type { WalletNetwork } from "@/lib/proofs/wallet-address";

const clients = new Map<string, PublicClient>();

function rpcUrls(): Partial<Record<string, string>> {
  const raw = getEnv().EVM_RPC_URLS;
  return raw ? z.record(z.string(), z.url()).parse(JSON.parse(raw)) : {};
}

/** A JSON-RPC client for the network when `EVM_RPC_URLS` names one; null otherwise. */
export function evmClient(network: WalletNetwork): PublicClient | null {
  const url = rpcUrls()[network];
  if (!url) return null;
  let c = clients.get(url);
  if (!c) {
    c = createPublicClient({ transport: http(url, { timeout: getEnv().RPC_TIMEOUT_MS, retryCount: 1 }) }) as PublicClient;
    clients.set(url, c);
  }
  return c;
}
