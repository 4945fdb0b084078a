"use client";

import { QueryClient, QueryClientProvider } from "@tanstack/react-query";
import { useEffect, useState, type ReactNode } from "react";
import { createConfig, custom, injected, useConnect, useConnection, useConnectors, useDisconnect, WagmiProvider } from "wagmi";
import { mainnet } from "wagmi/chains";
import { Alert, buttonClass } from "@/components/portal";

/**
 * The portal's wagmi config (the Proofs page's wallet proof, the "New record" form's wallet
 * step). Connectors: the browser's injected wallet (`window.ethereum`) and any announced
 * through EIP-6963. The portal only connects and signs (personal_sign), so the transport
 * refuses every chain read: nothing here talks to an RPC node. `ssr: true` leaves the wallet
 * state empty on the server and first render, then hydrates it on mount.
 */
function makeConfig() {
  return createConfig({
    chains: [mainnet],
    connectors: [injected()],
    transports: {
      [mainnet.id]: custom({
        async request() {
          throw new Error("The portal reads nothing from a chain.");
        },
      }),
    },
    ssr: true,
  });
}

/** A WagmiProvider and QueryClientProvider of its own, for the one island that needs a wallet. */
export function WalletProviders({ children }: { children: ReactNode }) {
  const [config] = useState(makeConfig);
  const [queryClient] = useState(() => new QueryClient());
  return (
    <WagmiProvider config={config}>
      <QueryClientProvider client={queryClient}>{children}</QueryClientProvider>
    </WagmiProvider>
  );
}

export const walletErrorText = (e: unknown) => (e as { shortMessage?: string }).shortMessage ?? (e as Error).message ?? String(e);

/**
 * Connecting a browser wallet, while none is connected: "looking", "no wallet found" (with
 * what to install), or a button per wallet; the connection's error. Renders nothing once connected.
 */
export function ConnectWallet({ what }: { what: string }) {
  const { address, status } = useConnection();
  const connectors = useConnectors();
  const connect = useConnect();
  const [hasWallet, setHasWallet] = useState<boolean | null>(null);

  // EIP-6963 wallets announce themselves; the plain injected connector has a provider only
  // if window.ethereum exists. Re-checked whenever the list of connectors changes.
  useEffect(() => {
    let live = true;
    Promise.all(connectors.map((c) => c.getProvider().catch(() => undefined))).then((ps) => {
      if (live) setHasWallet(ps.some(Boolean));
    });
    return () => {
      live = false;
    };
  }, [connectors]);

  if (status === "connected" && address) return null;
  // Wallets announced by EIP-6963 carry their own name; the generic connector is shown only without them.
  const announced = connectors.filter((c) => c.id !== "injected");
  const shown = announced.length > 0 ? announced : connectors.filter((c) => c.id === "injected");
  return (
    <>
      {hasWallet === null && <p className="text-sm text-slate-600">Looking for a browser wallet…</p>}
      {hasWallet === false && (
        <Alert kind="info">
          <span data-testid="no-wallet">
            No browser wallet was found. To {what}, install a browser wallet extension such as MetaMask (or open
            this page in your wallet app&apos;s built-in browser) and reload this page.
          </span>
        </Alert>
      )}
      {hasWallet && (
        <div className="flex flex-wrap gap-3">
          {shown.map((c) => (
            <button key={c.uid} type="button" className={buttonClass} disabled={connect.isPending}
              onClick={() => connect.mutate({ connector: c })}>
              {c.id === "injected" ? "Connect browser wallet" : `Connect ${c.name}`}
            </button>
          ))}
        </div>
      )}
      {connect.error && <Alert kind="error">The wallet did not connect: {walletErrorText(connect.error)}</Alert>}
    </>
  );
}

/** "Connected with your browser wallet: 0x…  Disconnect". */
export function ConnectedWallet({ onDisconnect }: { onDisconnect?: () => void }) {
  const { address, connector } = useConnection();
  const disconnect = useDisconnect();
  return (
    <p className="text-sm">
      Connected{connector ? ` with ${connector.id === "injected" ? "your browser wallet" : connector.name}` : ""}: <code className="break-all" data-testid="wallet-address">{address}</code>{" "}
      <button type="button" className="underline" onClick={() => { onDisconnect?.(); disconnect.mutate(); }}>Disconnect</button>
    </p>
  );
}
