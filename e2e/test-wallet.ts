import type { Page } from "@playwright/test";
import type { Hex } from "viem";
import type { PrivateKeyAccount } from "viem/accounts";

/**
 * A stand-in for a browser wallet extension: an EIP-1193 provider at window.ethereum that
 * answers the account and chain calls itself and forwards personal_sign to the test
 * process, where a viem local account signs. The app uses wagmi's real injected connector.
 */
export async function installTestWallet(page: Page, address: string, signer: () => PrivateKeyAccount, signed: { hex: Hex; from: string; signature: Hex }[]) {
  await page.exposeFunction("__prsTestWalletSign", async (hex: Hex, from: string) => {
    const signature = await signer().signMessage({ message: { raw: hex } });
    signed.push({ hex, from, signature });
    return signature;
  });
  await page.addInitScript(({ address }) => {
    const listeners = new Map<string, Set<(arg: unknown) => void>>();
    let connected = false;
    const permission = () => [{ parentCapability: "eth_accounts", caveats: [{ type: "restrictReturnedAccounts", value: [address] }] }];
    const rpcError = (code: number, message: string) => Object.assign(new Error(message), { code });
    const provider = {
      isPrsTestWallet: true,
      async request({ method, params }: { method: string; params?: unknown[] }) {
        switch (method) {
          case "eth_requestAccounts": connected = true; return [address];
          case "eth_accounts": return connected ? [address] : [];
          case "eth_chainId": return "0x1";
          case "net_version": return "1";
          case "wallet_requestPermissions": connected = true; return permission();
          case "wallet_getPermissions": return connected ? permission() : [];
          case "wallet_revokePermissions": connected = false; return null;
          case "personal_sign": {
            const [data, from] = (params ?? []) as [string, string];
            if (!connected || from.toLowerCase() !== address) throw rpcError(4100, "Unauthorized account");
            return (window as unknown as { __prsTestWalletSign: (d: string, f: string) => Promise<string> }).__prsTestWalletSign(data, from);
          }
          default: throw rpcError(4200, `Unsupported method ${method}`);
        }
      },
      on(event: string, fn: (arg: unknown) => void) {
        if (!listeners.has(event)) listeners.set(event, new Set());
        listeners.get(event)!.add(fn);
        return provider;
      },
      removeListener(event: string, fn: (arg: unknown) => void) {
        listeners.get(event)?.delete(fn);
        return provider;
      },
    };
    (window as unknown as { ethereum: unknown }).ethereum = provider;
  }, { address: address.toLowerCase() });
}

