import { Verifier } from "bip322-js";
import bs58 from "bs58";
import { isErc6492Signature, isHex, verifyMessage } from "viem";
import { askEvm, hasEvmRpc } from "@/lib/connectors/evm-rpc";
import { verifyEd25519Strict } from "@/lib/signing/ed25519-strict";
import type { EvmNetwork, NormalizedAddress, WalletNetwork } from "./wallet-address";

export type SignatureCheck =
  | { kind: "valid"; scheme: "eip191" | "eip1271/6492" | "bip137" | "bip322-simple" | "ed25519" }
  | { kind: "mismatch" }
  | { kind: "malformed"; message: string }
  | { kind: "unreachable"; reason: string };

/** Check `signature` over the exact UTF-8 `message` for the address. Never throws for bad input. */
export async function verifyWalletSignature(
  addr: NormalizedAddress, network: WalletNetwork, message: string, signature: string,
): Promise<SignatureCheck> {
  switch (addr.family) {
    case "evm":
      return verifyEvm(addr.address as `0x${string}`, network, message, signature);
    case "bitcoin":
      return verifyBitcoin(addr.address, message, signature);
    case "solana":
      return verifySolana(addr.address, message, signature);
  }
}

async function verifyEvm(address: `0x${string}`, network: WalletNetwork, message: string, signature: string): Promise<SignatureCheck> {
  if (!isHex(signature) || signature.length < 132) {
    return { kind: "malformed", message: "An EVM signature is 0x-prefixed hex of at least 65 bytes." };
  }
  try {
    if (signature.length === 132 && (await verifyMessage({ address, message, signature }))) return { kind: "valid", scheme: "eip191" };
  } catch {
    /* not a recoverable EOA signature: maybe a smart account's */
  }
  // Smart accounts (EIP-1271, and EIP-6492 for undeployed ones) need the chain.
  if (!hasEvmRpc(network)) return { kind: "mismatch" };
  // viem's verifyMessage treats a dead RPC like a bad signature, so ask for the code first:
  // it tells a smart account from a plain key and proves the chain is answering.
  const answer = await askEvm(network as EvmNetwork, async (client) => {
    const code = await client.getCode({ address });
    if ((!code || code === "0x") && !isErc6492Signature(signature)) return false;
    return client.verifyMessage({ address, message, signature });
  });
  if (answer.kind === "found") return answer.value ? { kind: "valid", scheme: "eip1271/6492" } : { kind: "mismatch" };
  return { kind: "unreachable", reason: answer.reason ?? `The ${network} RPC did not answer.` };
}

function verifyBitcoin(address: string, message: string, signature: string): SignatureCheck {
  // BIP-322 v1 may prefix "smp"; the library expects the bare base64 witness.
  const sig = signature.startsWith("smp") ? signature.slice(3) : signature;
  if (!/^[A-Za-z0-9+/]+={0,2}$/.test(sig)) return { kind: "malformed", message: "A bitcoin signature is base64." };
  const bytes = Buffer.from(sig, "base64");
  try {
    // Strict: a BIP-137 header must match the address type.
    const ok = Verifier.verifySignature(address, message, sig, true);
    if (!ok) return { kind: "mismatch" };
    return { kind: "valid", scheme: bytes.length === 65 ? "bip137" : "bip322-simple" };
  } catch {
    return bytes.length === 65 ? { kind: "mismatch" } : { kind: "malformed", message: "Not a BIP-137 or BIP-322 simple signature." };
  }
}

function verifySolana(address: string, message: string, signature: string): SignatureCheck {
  const sig = decodeSolanaSignature(signature);
  if (!sig) return { kind: "malformed", message: "A Solana signature is 64 bytes, base58 or base64." };
  let key: Uint8Array;
  try {
    key = bs58.decode(address);
  } catch {
    return { kind: "mismatch" };
  }
  // Strict (RFC 8032, no small-order or mixed-order keys): see lib/signing/ed25519-strict.ts.
  return verifyEd25519Strict(sig, new TextEncoder().encode(message), key) ? { kind: "valid", scheme: "ed25519" } : { kind: "mismatch" };
}

/** base58 and base64 can both be 88 characters: tell them apart by alphabet, then require 64 bytes. */
function decodeSolanaSignature(s: string): Uint8Array | null {
  const tries: (() => Uint8Array)[] = /[+/=0OIl]/.test(s)
    ? [() => new Uint8Array(Buffer.from(s, "base64"))]
    : [() => bs58.decode(s), () => new Uint8Array(Buffer.from(s, "base64"))];
  for (const t of tries) {
    try {
      const b = t();
      if (b.length === 64) return b;
    } catch {
      /* next encoding */
    }
  }
  return null;
}
