"use client";

import { QueryClient, QueryClientProvider } from "@tanstack/react-query";
import { useEffect, useState, type ReactNode } from "react";
import { createConfig, custom, injected, useConnect, useConnection, useConnectors, useDisconnect, WagmiProvider } from "wagmi";
import { mainnet } from "wagmi/chains";
import { CopyButton } from "@/components/copy-button";
import { Alert, buttonClass, inputClass, secondaryButtonClass } from "@/components/portal";

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

/**
 * The network choice and the button that requests a wallet challenge for the connected
 * address (both wallet flows: the Proofs page and the "New record" form's wallet step).
 * Changing the network drops the challenge requested before (`onNetwork`).
 */
export function ChallengeRequest({ networks, network, onNetwork, busy, onRequest, label = "Request challenge" }: {
  networks: readonly string[];
  network: string;
  onNetwork: (network: string) => void;
  busy: boolean;
  onRequest: () => void;
  label?: string;
}) {
  return (
    <div className="flex flex-wrap items-end gap-3">
      <label className="text-sm">
        Network
        <select className={inputClass} value={network} onChange={(e) => onNetwork(e.target.value)}>
          {networks.map((n) => <option key={n} value={n}>{n}</option>)}
        </select>
      </label>
      <button type="button" className={secondaryButtonClass} disabled={busy} onClick={onRequest}>{label}</button>
    </div>
  );
}

/** The challenge message the wallet will sign, shown whole with a copy button; `children` follow it (what to press next). */
export function ChallengeMessage({ message, intro, children }: { message: string; intro: string; children?: ReactNode }) {
  return (
    <div className="rounded border border-slate-200 bg-white p-4" data-testid="wallet-challenge">
      <p className="text-sm">{intro}</p>
      <pre id="wallet-message" className="mt-2 overflow-x-auto whitespace-pre-wrap break-all rounded bg-slate-50 p-3 text-xs" data-testid="wallet-message">{message}</pre>
      <div className="mt-2"><CopyButton value={message} label="message" targetId="wallet-message" /></div>
      {children}
    </div>
  );
}
