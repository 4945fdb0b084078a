/**
 * What a reviewer confirms before approving, per claim type. Approval needs every item
 * ticked; the ticked keys go into the audit log with the decision.
 */
export type ChecklistItem = { key: string; label: string };

const GENERIC: ChecklistItem[] = [
  { key: "source_opened", label: "I opened the source URL myself and it is the source named (source_name)." },
  { key: "subject_matches", label: "The source names the subject exactly as submitted." },
  { key: "claim_supported", label: "The source supports the claim as worded, no more." },
  { key: "checked_at_plausible", label: "What the source shows is consistent with checked_at." },
];

const BY_CLAIM_TYPE: Record<string, ChecklistItem[]> = {
  domain_ownership: [
    { key: "txt_found", label: "With a resolver of my own, the TXT record at txt_name holds txt_value exactly." },
    { key: "domain_matches", label: "The domain in the evidence is the record's subject." },
  ],
  wallet_ownership: [
    { key: "message_matches", label: "The signed message is the challenge issued for this address and network." },
    { key: "signature_verified", label: "The signature verifies for the address (for a smart account: EIP-1271/6492 on its chain)." },
  ],
};

export function checklistFor(claimType: string): ChecklistItem[] {
  return BY_CLAIM_TYPE[claimType] ?? GENERIC;
}
