"use client";

import { useEffect, useState } from "react";
import { useConnection, useSignMessage } from "wagmi";
import { buttonClass } from "@/components/portal";
import { ChallengeMessage, ChallengeRequest, ConnectedWallet, ConnectWallet, WalletProviders, walletErrorText as errorText } from "@/components/wallet-connect";
import { formatUtc } from "@/lib/format/dates";
import { requestWalletChallengeAction, submitWalletProofAction, type ProofState, type WalletChallenge } from "./actions";
import { ProofResult } from "./proof-result";

type Props = { environment: string; networks: readonly string[] };

/** The wallet proof, in its own wagmi providers (only this island needs them). */
export function WalletProof(props: Props) {
  return (
    <WalletProviders>
      <WalletFlow {...props} />
    </WalletProviders>
  );
}

function WalletFlow({ environment, networks }: Props) {
  const { address, status } = useConnection();
  const sign = useSignMessage();
  const [network, setNetwork] = useState(networks[0] ?? "ethereum");
  const [isPublic, setIsPublic] = useState(true);
  const [challenge, setChallenge] = useState<WalletChallenge | null>(null);
  const [result, setResult] = useState<ProofState>({});
  const [busy, setBusy] = useState(false);

  // A challenge is for one address: switching accounts in the wallet drops it.
  useEffect(() => {
    if (challenge && address?.toLowerCase() !== challenge.address.toLowerCase()) setChallenge(null);
  }, [address, challenge]);

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
      <ConnectWallet what="prove a wallet" />

      {connected && (
        <div className="space-y-3">
          <ConnectedWallet onDisconnect={() => { setChallenge(null); setResult({}); }} />
          <ChallengeRequest
            networks={networks} network={network} busy={busy} onRequest={requestChallenge}
            onNetwork={(n) => { setNetwork(n); setChallenge(null); }}
          />
        </div>
      )}

      {connected && challenge && (
        <ChallengeMessage message={challenge.message} intro="Your wallet will ask you to sign this message. Signing costs nothing and grants no permission:">
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
        </ChallengeMessage>
      )}

      <ProofResult state={result} what="the signature was made by this address's key." />
    </div>
  );
}
