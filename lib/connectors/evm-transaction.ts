import {
  getAddress, TransactionNotFoundError, TransactionReceiptNotFoundError,
  type Address, type Hex, type PublicClient,
} from "viem";
import type { EvmNetwork } from "@/lib/proofs/wallet-address";
import { askEvm, CHAIN_IDS, hasEvmRpc } from "./evm-rpc";
import type { SourceResult } from "./source-result";

/** A mined transaction as its network's RPC reports it, at the moment of asking. */
export type EvmTransaction = {
  network: EvmNetwork;
  chain_id: number;
  tx_hash: Hex;
  block_number: number;
  block_hash: Hex;
  /** ISO 8601, from the block's timestamp. */
  block_time: string;
  /** EIP-55 checksummed. */
  from: Address;
  /** EIP-55 checksummed; null for a contract creation. */
  to: Address | null;
  /** Wei, as a decimal string (exceeds 2^53). */
  value: string;
  status: "success" | "reverted";
  /** Latest block − the receipt's block + 1, at the moment of asking. */
  confirmations: number;
};

export const TX_HASH_RE = /^0x[0-9a-fA-F]{64}$/;

/**
 * Look a transaction up on `network` through the RPC `EVM_RPC_URLS` names for it: its
 * receipt, the transaction (for the value), its block (for the time) and the latest block
 * number (for confirmations). Never throws.
 * - no RPC for the network, an RPC serving another chain, no answer in time → unreachable;
 * - a hash the node does not know → not_found;
 * - a transaction the node holds but has not mined (no receipt yet) → not_found, with a
 *   reason saying it is pending: there is no block, status or confirmation count to judge,
 *   and the client submits again once it is mined.
 */
export async function lookupTransaction(network: EvmNetwork, txHash: string): Promise<SourceResult<EvmTransaction>> {
  if (!TX_HASH_RE.test(txHash)) return { kind: "not_found", reason: `${txHash} is not a transaction hash (0x and 64 hex digits).` };
  const hash = txHash.toLowerCase() as Hex;
  if (!hasEvmRpc(network)) return { kind: "unreachable", reason: `No RPC is configured for ${network} (EVM_RPC_URLS), so the transaction cannot be looked up.` };
  // askEvm: the chain id check first; an RPC that fails or serves another chain is unreachable
  // (its reason names the error only: viem's messages repeat the RPC URL, which may carry a key).
  const asked = await askEvm(network, (client) => lookup(client, network, hash));
  return asked.kind === "found" ? asked.value : asked;
}

async function lookup(client: PublicClient, network: EvmNetwork, hash: Hex): Promise<SourceResult<EvmTransaction>> {
  let receipt;
  try {
    receipt = await client.getTransactionReceipt({ hash });
  } catch (e) {
    if (!(e instanceof TransactionReceiptNotFoundError)) throw e;
    return notMined(client, network, hash);
  }
  // cacheTime 0: viem otherwise reuses a block number up to 4 s old, understating confirmations.
  const [tx, block, latest] = await Promise.all([
    client.getTransaction({ hash }),
    client.getBlock({ blockHash: receipt.blockHash }),
    client.getBlockNumber({ cacheTime: 0 }),
  ]);
  return {
    kind: "found",
    value: {
      network,
      chain_id: CHAIN_IDS[network],
      tx_hash: hash,
      block_number: Number(receipt.blockNumber),
      block_hash: receipt.blockHash,
      block_time: new Date(Number(block.timestamp) * 1000).toISOString(),
      from: getAddress(receipt.from),
      to: receipt.to ? getAddress(receipt.to) : null,
      value: tx.value.toString(),
      status: receipt.status,
      // A load-balanced RPC may answer "latest" from a node a block behind the receipt's.
      confirmations: Math.max(0, Number(latest - receipt.blockNumber) + 1),
    },
  };
}

/** No receipt: unknown to the node, or known and waiting in its pool. */
async function notMined(client: PublicClient, network: EvmNetwork, hash: Hex): Promise<SourceResult<EvmTransaction>> {
  try {
    await client.getTransaction({ hash });
  } catch (e) {
    if (!(e instanceof TransactionNotFoundError)) throw e;
    return { kind: "not_found", reason: `The ${network} network has no transaction ${hash}.` };
  }
  return { kind: "not_found", reason: `Transaction ${hash} is pending on ${network}: it is not in a block yet. Submit it again once it has been mined.` };
}
