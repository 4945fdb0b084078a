import * as bitcoin from "bitcoinjs-lib";
import bs58 from "bs58";
import { getAddress, isAddress } from "viem";
import type { FieldError } from "@/lib/http/errors";
import { checkEd25519PublicKey } from "@/lib/signing/ed25519-strict";

export const EVM_NETWORKS = ["ethereum", "base", "polygon", "arbitrum", "optimism", "bsc"] as const;
export const WALLET_NETWORKS = [...EVM_NETWORKS, "bitcoin", "solana"] as const;
export type WalletNetwork = (typeof WALLET_NETWORKS)[number];
export type EvmNetwork = (typeof EVM_NETWORKS)[number];
/** The native coin whose wei a transaction's `value` counts (all six use 18 decimals). */
export const NATIVE_COIN: Readonly<Record<EvmNetwork, string>> = { ethereum: "ETH", base: "ETH", optimism: "ETH", arbitrum: "ETH", polygon: "POL", bsc: "BNB" };
export type AddressFamily = "evm" | "bitcoin" | "solana";
export type BitcoinKind = "p2pkh" | "p2sh-p2wpkh" | "p2wpkh";

export const familyOf = (n: WalletNetwork): AddressFamily =>
  n === "bitcoin" ? "bitcoin" : n === "solana" ? "solana" : "evm";

export type NormalizedAddress = { address: string; family: AddressFamily; kind?: BitcoinKind };

const invalid = (message: string): { error: FieldError } => ({ error: { code: "invalid_address", param: "address", message } });

/**
 * Check an address for its network and return its canonical form. Checksums are
 * verified by viem (EIP-55), bitcoinjs-lib (base58check, bech32) and bs58.
 */
export function normalizeAddress(address: string, network: WalletNetwork): NormalizedAddress | { error: FieldError } {
  const a = address.trim();
  switch (familyOf(network)) {
    case "evm": {
      // All lower or all upper case carries no checksum; mixed case must pass EIP-55.
      if (!isAddress(a, { strict: true })) return invalid(`'${a.slice(0, 100)}' is not a valid EVM address (bad length, characters or EIP-55 checksum).`);
      return { address: getAddress(a), family: "evm" };
    }
    case "bitcoin":
      return normalizeBitcoin(a);
    case "solana": {
      let bytes: Uint8Array;
      try {
        bytes = bs58.decode(a);
      } catch {
        return invalid(`'${a.slice(0, 100)}' is not a base58 Solana address.`);
      }
      if (bytes.length !== 32) return invalid("A Solana address is the base58 form of a 32-byte public key.");
      // Off-curve addresses (program-derived) and weak keys cannot sign: no proof can be made for them.
      const key = checkEd25519PublicKey(bytes);
      if (!key.ok) {
        return invalid(`'${a}' cannot sign messages: it is not the public key of a key pair (${key.message.replace(/\.$/, "")}).`);
      }
      return { address: a, family: "solana" };
    }
  }
}

function normalizeBitcoin(a: string): NormalizedAddress | { error: FieldError } {
  const lower = a.toLowerCase();
  if (lower.startsWith("bc1p")) {
    return {
      error: {
        code: "unsupported_address_type", param: "address",
        message: "Taproot (bc1p…) addresses are not supported yet: use a legacy 1…, 3… or bc1q… address.",
      },
    };
  }
  if (/^(tb1|bcrt1|[mn2])/i.test(a)) return invalid("This is a testnet address; the bitcoin network here is mainnet.");
  const normalized = lower.startsWith("bc1") ? lower : a;
  let script: Buffer;
  try {
    script = bitcoin.address.toOutputScript(normalized, bitcoin.networks.bitcoin);
  } catch {
    return invalid(`'${a.slice(0, 100)}' is not a valid bitcoin address (checksum or format).`);
  }
  if (normalized.startsWith("1")) return { address: normalized, family: "bitcoin", kind: "p2pkh" };
  if (normalized.startsWith("3")) return { address: normalized, family: "bitcoin", kind: "p2sh-p2wpkh" };
  if (normalized.startsWith("bc1q") && script.length === 22) return { address: normalized, family: "bitcoin", kind: "p2wpkh" };
  return {
    error: { code: "unsupported_address_type", param: "address", message: "Only 1…, 3… and bc1q… (P2WPKH) bitcoin addresses are supported." },
  };
}

/** Same address? EVM addresses compare case-insensitively, bech32 in lower case, base58 exactly. */
export function sameAddress(a: string, b: string, family: AddressFamily) {
  if (family === "evm") return a.toLowerCase() === b.toLowerCase();
  if (family === "bitcoin" && a.toLowerCase().startsWith("bc1")) return a.toLowerCase() === b.toLowerCase();
  return a === b;
}
