"use client";

import { QueryClient, QueryClientProvider } from "@tanstack/react-query";
import { useEffect, useState } from "react";
import { createConfig, custom, injected, useConnect, useConnection, useConnectors, useDisconnect, useSignMessage, WagmiProvider } from "wagmi";
import { mainnet } from "wagmi/chains";
import { CopyButton } from "@/components/copy-button";
import { Alert, buttonClass, inputClass, secondaryButtonClass } from "@/components/portal";
import { formatUtc } from "@/lib/format/dates";
import { requestWalletChallengeAction, submitWalletProofAction, type ProofState, type WalletChallenge } from "./actions";
import { ProofResult } from "./proof-result";

/**
 * The page's only wagmi config. Connectors: the browser's injected wallet (`window.ethereum`)
 * and any announced through EIP-6963. The page only connects and signs (personal_sign), so
 * the transport refuses every chain read: nothing here talks to an RPC node. `ssr: true`
 * leaves the wallet state empty on the server and first render, then hydrates it on mount.
 */
function makeConfig() {
  return createConfig({
    chains: [mainnet],
    connectors: [injected()],
    transports: {
      [mainnet.id]: custom({
        async request() {
          throw new Error("The proofs page reads nothing from a chain.");
        },
      }),
    },
    ssr: true,
  });
}

type Props = { environment: string; networks: readonly string[] };

/** The wallet proof, in its own WagmiProvider and QueryClientProvider (only this island needs them). */
export function WalletProof(props: Props) {
  const [config] = useState(makeConfig);
  const [queryClient] = useState(() => new QueryClient());
  return (
    <WagmiProvider config={config}>
      <QueryClientProvider client={queryClient}>
        <WalletFlow {...props} />
      </QueryClientProvider>
    </WagmiProvider>
  );
}

const errorText = (e: unknown) => (e as { shortMessage?: string }).shortMessage ?? (e as Error).message ?? String(e);

function WalletFlow({ environment, networks }: Props) {
  const { address, connector, status } = useConnection();
  const connectors = useConnectors();
  const connect = useConnect();
  const disconnect = useDisconnect();
  const sign = useSignMessage();
  const [hasWallet, setHasWallet] = useState<boolean | null>(null);
  const [network, setNetwork] = useState(networks[0] ?? "ethereum");
  const [isPublic, setIsPublic] = useState(true);
  const [challenge, setChallenge] = useState<WalletChallenge | null>(null);
  const [result, setResult] = useState<ProofState>({});
  const [busy, setBusy] = useState(false);

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

  // A challenge is for one address: switching accounts in the wallet drops it.
  useEffect(() => {
    if (challenge && address?.toLowerCase() !== challenge.address.toLowerCase()) setChallenge(null);
  }, [address, challenge]);

  // Wallets announced by EIP-6963 carry their own name; the generic connector is shown only without them.
  const announced = connectors.filter((c) => c.id !== "injected");
  const shown = announced.length > 0 ? announced : connectors.filter((c) => c.id === "injected");
  const connected = status === "connected" && address;

  async function requestChallenge() {
    if (!address) return;
    setBusy(true);
    setResult({});
    try {
      const r = await requestWalletChallengeAction({ environment, address, network });
      if (r.error) setResult({ error: r.error });
      setChallenge(r.challenge ?? null);
    } catch (e) {
      setResult({ error: `The challenge could not be requested: ${errorText(e)}` });
    } finally {
      setBusy(false);
    }
  }

  async function signAndSubmit() {
    if (!challenge) return;
    setBusy(true);
    setResult({});
    try {
      let signature: string;
      try {
        // personal_sign over the exact UTF-8 text of the challenge message.
        signature = await sign.mutateAsync({ message: challenge.message, account: challenge.address as `0x${string}` });
      } catch (e) {
        setResult({ error: `Your wallet did not sign, so nothing was submitted (${errorText(e)}). You can sign again.` });
        return;
      }
      const r = await submitWalletProofAction({ environment, challengeId: challenge.id, signature, visibility: isPublic ? "public" : "private" });
      setResult(r);
      if (r.issued || r.pending) setChallenge(null);
    } catch (e) {
      setResult({ error: `The proof could not be submitted: ${errorText(e)}` });
    } finally {
      setBusy(false);
    }
  }

  return (
    <div className="mt-4 space-y-4" data-testid="wallet-proof">
      {!connected && hasWallet === null && <p className="text-sm text-slate-600">Looking for a browser wallet…</p>}
      {!connected && hasWallet === false && (
        <Alert kind="info">
          <span data-testid="no-wallet">
            No browser wallet was found. To prove a wallet, install a browser wallet extension such as MetaMask (or open
            this page in your wallet app&apos;s built-in browser) and reload this page.
          </span>
        </Alert>
      )}
      {!connected && hasWallet && (
        <div className="flex flex-wrap gap-3">
          {shown.map((c) => (
            <button key={c.uid} type="button" className={buttonClass} disabled={connect.isPending}
              onClick={() => connect.mutate({ connector: c })}>
              {c.id === "injected" ? "Connect browser wallet" : `Connect ${c.name}`}
            </button>
          ))}
        </div>
      )}
      {connect.error && !connected && <Alert kind="error">The wallet did not connect: {errorText(connect.error)}</Alert>}

      {connected && (
        <div className="space-y-3">
          <p className="text-sm">
            Connected{connector ? ` with ${connector.id === "injected" ? "your browser wallet" : connector.name}` : ""}: <code className="break-all" data-testid="wallet-address">{address}</code>{" "}
            <button type="button" className="underline" onClick={() => { setChallenge(null); setResult({}); disconnect.mutate(); }}>Disconnect</button>
          </p>
          <div className="flex flex-wrap items-end gap-3">
            <label className="text-sm">
              Network
              <select className={inputClass} value={network} onChange={(e) => { setNetwork(e.target.value); setChallenge(null); }}>
                {networks.map((n) => <option key={n} value={n}>{n}</option>)}
              </select>
            </label>
            <button type="button" className={secondaryButtonClass} disabled={busy} onClick={requestChallenge}>Request challenge</button>
          </div>
        </div>
      )}

      {connected && challenge && (
        <div className="rounded border border-slate-200 bg-white p-4" data-testid="wallet-challenge">
          <p className="text-sm">Your wallet will ask you to sign this message. Signing costs nothing and grants no permission:</p>
          <pre id="wallet-message" className="mt-2 overflow-x-auto whitespace-pre-wrap break-all rounded bg-slate-50 p-3 text-xs" data-testid="wallet-message">{challenge.message}</pre>
          <div className="mt-2"><CopyButton value={challenge.message} label="message" targetId="wallet-message" /></div>
          <p className="mt-2 text-xs text-slate-600">Challenge <code>{challenge.id}</code>, valid until {formatUtc(challenge.expiresAt)}.</p>
          <div className="mt-3 flex flex-wrap items-center gap-4">
            <label className="flex w-full items-start gap-2 text-sm">
              <input type="checkbox" checked={isPublic} onChange={(e) => setIsPublic(e.target.checked)} className="mt-1 shrink-0" />
              <span>Public record (live only: its certificate may be indexed by search engines; a private one — and every sandbox record — is reachable by its id only)</span>
            </label>
            <button type="button" className={buttonClass} disabled={busy} onClick={signAndSubmit}>
              {busy ? "Waiting for the wallet…" : "Sign with wallet and submit"}
            </button>
          </div>
        </div>
      )}

      <ProofResult state={result} what="the signature was made by this address's key." />
    </div>
  );
}
