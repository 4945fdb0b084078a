"use client";

import { useEffect, useRef, useState } from "react";
import { useConnection, useSignMessage } from "wagmi";
import { Alert, secondaryButtonClass } from "@/components/portal";
import { ChallengeMessage, ChallengeRequest, ConnectedWallet, ConnectWallet, walletErrorText } from "@/components/wallet-connect";
import type { WalletFields } from "@/lib/claims/form-spec";
import { requestWalletChallengeAction, type WalletChallenge } from "../../proofs/actions";

/** What the wallet signed: sent as the fields WALLET_FIELDS names (hidden inputs of the form). */
type Signed = { address: string; challengeId: string; signature: string; environment?: string };

type Props = {
  /** The claim type the challenge is requested for (the form's choice). */
  claimType: string;
  /** The form fields the signed challenge fills. */
  fields: WalletFields;
  networks: readonly string[];
  /** What the form posted last (on a refusal): a signature already made is kept, not asked again. */
  values: Record<string, string>;
  /** Errors the service gave for the filled fields, by field name. */
  errors: Record<string, string>;
};

/**
 * The "New record" form's wallet step, for a kind declared with `form.walletChallenge`: the
 * browser wallet connects, a wallet challenge is requested for the kind (the Proofs page's
 * action, with the claim type), the wallet signs its message (personal_sign), and the form
 * sends the wallet's address as the subject with the challenge id and signature. The
 * challenge is of the environment chosen below at the moment it is requested.
 */
export function WalletStep({ claimType, fields: WALLET_FIELDS, networks, values, errors }: Props) {
  const { address, status } = useConnection();
  const sign = useSignMessage();
  const [network, setNetwork] = useState(networks[0] ?? "ethereum");
  const [challenge, setChallenge] = useState<(WalletChallenge & { environment: string }) | null>(null);
  const kept = values[WALLET_FIELDS.subject] && values[WALLET_FIELDS.challengeId] && values[WALLET_FIELDS.signature]
    ? { address: values[WALLET_FIELDS.subject]!, challengeId: values[WALLET_FIELDS.challengeId]!, signature: values[WALLET_FIELDS.signature]! } : null;
  const [signed, setSigned] = useState<Signed | null>(kept);
  const [error, setError] = useState<string>();
  const [busy, setBusy] = useState(false);
  const root = useRef<HTMLDivElement>(null);
  const connected = status === "connected" && address;

  // A challenge is for one address: switching accounts in the wallet drops it (and what it signed).
  useEffect(() => {
    if (!address) return;
    if (challenge && address.toLowerCase() !== challenge.address.toLowerCase()) setChallenge(null);
    if (signed && address.toLowerCase() !== signed.address.toLowerCase()) setSigned(null);
  }, [address, challenge, signed]);

  /** The environment chosen in the form now (the challenge must be of the record's environment). */
  const environment = () => {
    const el = root.current?.closest("form")?.elements.namedItem("environment");
    return (el && "value" in el ? String(el.value) : "") || "sandbox";
  };

  async function requestChallenge() {
    if (!address) return;
    setBusy(true);
    setError(undefined);
    try {
      const env = environment();
      const r = await requestWalletChallengeAction({ environment: env, address, network, claimType });
      if (r.error) setError(r.error);
      setChallenge(r.challenge ? { ...r.challenge, environment: env } : null);
      setSigned(null);
    } catch (e) {
      setError(`The challenge could not be requested: ${walletErrorText(e)}`);
    } finally {
      setBusy(false);
    }
  }

  async function signChallenge() {
    if (!challenge) return;
    setBusy(true);
    setError(undefined);
    try {
      // personal_sign over the exact UTF-8 text of the challenge message.
      const signature = await sign.mutateAsync({ message: challenge.message, account: challenge.address as `0x${string}` });
      setSigned({ address: challenge.address, challengeId: challenge.id, signature, environment: challenge.environment });
    } catch (e) {
      setError(`Your wallet did not sign (${walletErrorText(e)}). You can sign again.`);
    } finally {
      setBusy(false);
    }
  }

  const fieldErrors = [WALLET_FIELDS.subject, WALLET_FIELDS.challengeId, WALLET_FIELDS.signature].map((n) => errors[n]).filter(Boolean);

  return (
    <div ref={root} className="space-y-3" data-testid="wallet-step">
      <div>
        <p className="text-sm font-medium">Your wallet</p>
        <p className="mt-1 text-xs text-slate-600">
          The record is about the wallet you connect here. It signs a one-time message to show you control it: signing costs nothing and grants no permission.
          Choose the environment below before you request the challenge.
        </p>
      </div>
      <input type="hidden" name={WALLET_FIELDS.subject} value={signed?.address ?? ""} />
      <input type="hidden" name={WALLET_FIELDS.challengeId} value={signed?.challengeId ?? ""} />
      <input type="hidden" name={WALLET_FIELDS.signature} value={signed?.signature ?? ""} />

      <ConnectWallet what="sign with your wallet" />
      {connected && (
        <>
          <ConnectedWallet onDisconnect={() => { setChallenge(null); setSigned(null); setError(undefined); }} />
          <ChallengeRequest
            networks={networks} network={network} busy={busy} onRequest={requestChallenge}
            onNetwork={(n) => { setNetwork(n); setChallenge(null); }}
            label={signed ? "Sign a new challenge" : "Request challenge"}
          />
        </>
      )}

      {connected && challenge && !signed && (
        <ChallengeMessage message={challenge.message} intro="Your wallet will ask you to sign this message:">
          <button type="button" className={`${secondaryButtonClass} mt-3`} disabled={busy} onClick={signChallenge}>
            {busy ? "Waiting for the wallet…" : "Sign with wallet"}
          </button>
        </ChallengeMessage>
      )}

      {signed && (
        <p className="rounded border border-green-200 bg-green-50 p-3 text-sm text-green-900" data-testid="wallet-signed">
          Signed by <code className="break-all">{signed.address}</code>{signed.environment ? ` for a ${signed.environment} record` : ""}. Fill in the rest and press “Create record”.
        </p>
      )}
      {error && <Alert kind="error"><span data-testid="wallet-error">{error}</span></Alert>}
      {fieldErrors.map((m) => <p key={m} className="text-sm font-medium text-red-700" data-testid="field-error">{m}</p>)}
    </div>
  );
}
