import fs from "node:fs";
import { createRequire } from "node:module";
import path from "node:path";
import {
  createPublicClient, createWalletClient, defineChain, encodeDeployData, encodeFunctionData, getAddress, getContractAddress, http,
  type Abi, type Account, type Address, type Chain, type Hex, type PublicClient, type Transport, type WalletClient,
} from "viem";
import { privateKeyToAccount } from "viem/accounts";
import { HARDHAT_KEY_0 } from "./hardhat-node";

/** solc (solcjs, the official WASM build from npm) has no types; this is the part used here. */
type Solc = { version(): string; compile(input: string): string };

export type Compiled = { abi: Abi; bytecode: Hex };
export type TestContracts = { OwnerWallet: Compiled; OwnerWalletFactory: Compiled; Reverter: Compiled; solcVersion: string };

const SOURCES = ["OwnerWallet.sol", "Reverter.sol"];
let cached: TestContracts | undefined;

/**
 * Compile tests/chain/OwnerWallet.sol and Reverter.sol with solcjs (about a second; no compiler download,
 * which hardhat's own compile task would need). Memoized per test file.
 */
export function testContracts(): TestContracts {
  if (cached) return cached;
  const solc = createRequire(import.meta.url)("solc") as Solc;
  const input = {
    language: "Solidity",
    sources: Object.fromEntries(SOURCES.map((f) => [f, { content: fs.readFileSync(path.join(import.meta.dirname, f), "utf8") }])),
    settings: { optimizer: { enabled: true, runs: 200 }, outputSelection: { "*": { "*": ["abi", "evm.bytecode.object"] } } },
  };
  const out = JSON.parse(solc.compile(JSON.stringify(input))) as {
    errors?: { severity: string; formattedMessage: string }[];
    contracts: Record<string, Record<string, { abi: Abi; evm: { bytecode: { object: string } } }>>;
  };
  const errors = (out.errors ?? []).filter((e) => e.severity === "error");
  if (errors.length) throw new Error(`solc: ${errors.map((e) => e.formattedMessage).join("\n")}`);
  const get = (name: string, file = "OwnerWallet.sol"): Compiled => {
    const c = out.contracts[file]![name]!;
    return { abi: c.abi, bytecode: `0x${c.evm.bytecode.object}` };
  };
  cached = { OwnerWallet: get("OwnerWallet"), OwnerWalletFactory: get("OwnerWalletFactory"), Reverter: get("Reverter", "Reverter.sol"), solcVersion: solc.version() };
  return cached;
}

export type ChainClients = { publicClient: PublicClient; walletClient: WalletClient<Transport, Chain, Account> };

/** viem clients for a local node; the wallet client sends as hardhat's funded account #0. */
export function chainClients(url: string, chainId: number): ChainClients {
  const chain = defineChain({ id: chainId, name: `test chain ${chainId}`, nativeCurrency: { name: "Ether", symbol: "ETH", decimals: 18 }, rpcUrls: { default: { http: [url] } } });
  // cacheTime 0: viem caches block numbers for 4 s by default, which hides fresh blocks.
  const publicClient = createPublicClient({ chain, transport: http(url), cacheTime: 0, pollingInterval: 50 }) as PublicClient;
  const walletClient = createWalletClient({ chain, transport: http(url), account: privateKeyToAccount(HARDHAT_KEY_0), cacheTime: 0, pollingInterval: 50 });
  return { publicClient, walletClient };
}

async function deploy(c: ChainClients, contract: Compiled, args: readonly unknown[]): Promise<Address> {
  const hash = await c.walletClient.deployContract({ abi: contract.abi, bytecode: contract.bytecode, args });
  const receipt = await c.publicClient.waitForTransactionReceipt({ hash });
  if (receipt.status !== "success" || !receipt.contractAddress) throw new Error(`deployment failed: ${hash}`);
  return getAddress(receipt.contractAddress);
}

/** Deploy an OwnerWallet (EIP-1271 account) owned by `owner`. */
export const deployOwnerWallet = (c: ChainClients, owner: Address) => deploy(c, testContracts().OwnerWallet, [owner]);

/** Deploy a Reverter: every call of its `pay()` reverts. */
export const deployReverter = (c: ChainClients) => deploy(c, testContracts().Reverter, []);

/** Deploy the CREATE2 factory for OwnerWallets. */
export const deployWalletFactory = (c: ChainClients) => deploy(c, testContracts().OwnerWalletFactory, []);

/**
 * A counterfactual OwnerWallet: its CREATE2 address (computed here, not asked of the
 * chain) and the factory call that would deploy it.
 */
export function counterfactualWallet(factory: Address, owner: Address, salt: Hex) {
  const { OwnerWallet, OwnerWalletFactory } = testContracts();
  const initCode = encodeDeployData({ abi: OwnerWallet.abi, bytecode: OwnerWallet.bytecode, args: [owner] });
  const address = getContractAddress({ opcode: "CREATE2", from: factory, salt, bytecode: initCode });
  const factoryData = encodeFunctionData({ abi: OwnerWalletFactory.abi, functionName: "deploy", args: [owner, salt] });
  return { address, factory, factoryData };
}

/** The wallet's own answer to isValidSignature(hash, signature): 0x1626ba7e means valid. */
export function isValidSignatureOnChain(c: ChainClients, wallet: Address, hash: Hex, signature: Hex) {
  return c.publicClient.readContract({
    address: wallet, abi: testContracts().OwnerWallet.abi, functionName: "isValidSignature", args: [hash, signature],
  }) as Promise<Hex>;
}
