/** What a record proves and what it does not, in plain words, per claim type. */
type Props = { claimType: string; evidence: Record<string, unknown> };

const str = (v: unknown) => (typeof v === "string" ? v : "");

export function ProofScope({ claimType, evidence }: Props) {
  const checked = str(evidence.checked_at).replace("T", " ").replace(/\.\d+Z$/, " UTC");
  let proved: React.ReactNode = null;
  let notProved = "";
  let recheck: React.ReactNode = null;
  if (claimType === "domain_ownership") {
    proved = (
      <>Control of DNS for <strong>{str(evidence.domain)}</strong> at {checked}: the TXT record <code>{str(evidence.txt_name)}</code> held the value <code className="break-all">{str(evidence.txt_value)}</code>.</>
    );
    notProved = "Who owns or runs the domain (identity), or that its website or business can be trusted.";
    recheck = (
      <>Re-check it yourself: <code>{`dig +short TXT ${str(evidence.txt_name)}`}</code> must show <code className="break-all">&quot;{str(evidence.txt_value)}&quot;</code>. The service re-checks it periodically and suspends this record when it is gone.</>
    );
  } else if (claimType === "wallet_ownership") {
    proved = (
      <>Control of the key behind the {str(evidence.network)} address <code className="break-all">{str(evidence.address)}</code> at {checked}: it signed the challenge message ({str(evidence.signature_scheme)}).</>
    );
    notProved = "Who holds the key (identity), the address's balance or history, or that funds sent to it are safe.";
    recheck = <>The signed message and signature are part of the signed evidence above; any wallet library can verify them again.</>;
  } else if (claimType === "company_status") {
    notProved = "Anything at all: the statement is the participant's own and was not checked against a register.";
  } else {
    return null;
  }
  return (
    <section className="mt-4 rounded-lg bg-white p-5 shadow-sm ring-1 ring-slate-200" data-testid="proof-scope">
      {proved && (<><h2 className="font-semibold">What was proved</h2><p className="mt-2 text-slate-700">{proved}</p></>)}
      <h2 className={`font-semibold ${proved ? "mt-4" : ""}`}>What this record does not prove</h2>
      <p className="mt-2 text-slate-700">{notProved}</p>
      {recheck && <p className="mt-3 text-sm text-slate-600">{recheck}</p>}
    </section>
  );
}
