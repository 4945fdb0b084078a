/** Who made a statement, as a public answer names the account (its signed `account`). */
export type SpeakerAccount = { name: string | null; name_verified?: boolean };

/**
 * The name a certificate, badge or directory gives the account that made the statement: a
 * verified organisation's legal name as it is; any other name marked as the account's own
 * word (CONTRACT "The speaking account"), never the plain name.
 */
export const speakerName = (a: SpeakerAccount) =>
  a.name_verified && a.name ? a.name : a.name ? `an account calling itself “${a.name}” (name not verified)` : "an unnamed account";

/** Where the speaking account goes in a headline's sentence: pages put the name there as data (components/speaker-name.tsx), text surfaces fill it with speakerName. */
export const WHO = "{who}";

/** A headline sentence as plain text (emails, the badge, OG images): `{who}` filled with speakerName. */
export const withSpeakerText = (template: string, account: SpeakerAccount) => template.split(WHO).join(speakerName(account));

/**
 * The certificate's headline: how far the statement was checked, in plain words, naming who
 * made it where `{who}` stands (WHO). `tone` decides the treatment; only a verified record of a
 * verified organisation is green, a checked record of any other account amber.
 */
export function levelHeadline(o: { level: string; account: SpeakerAccount; environment: string; verified: boolean }) {
  if (o.environment === "sandbox") {
    return { tone: "sandbox" as const, title: "Sandbox test record — proves nothing", explain: `A test made by ${WHO}. Nothing here may be relied on.` };
  }
  if (o.level === "participant_attested") {
    return {
      tone: "stated" as const,
      title: `Stated by ${WHO} — not checked`,
      explain: `${WHO} made this statement. Proof Records recorded and signed it as theirs, but checked nothing in it against any source.`,
    };
  }
  const checked = o.level === "evidence_verified"
    ? { title: "Confirmed by a Proof Records reviewer", explain: `A Proof Records reviewer checked the evidence below before this was issued. The statement was made by ${WHO}.` }
    : { title: "Checked against a source", explain: `Proof Records checked this automatically against the source below when it was issued. The statement was made by ${WHO}.` };
  // Green only beside a verified organisation: a checked record of an account that merely names itself is "checked", not verified.
  const tone = !o.verified ? ("lapsed" as const) : o.account.name_verified ? ("verified" as const) : ("checked" as const);
  return { tone, ...checked };
}

/** Plain-words explanations shown on certificates: what each level did and did not check. */
export const EVIDENCE_LEVEL_TEXT: Record<string, { title: string; explain: string }> = {
  participant_attested: {
    title: "Participant attested",
    explain:
      "The issuer of this record stated this themselves. Proof Records recorded and signed the statement, but did not check it against any source.",
  },
  source_verified: {
    title: "Source verified",
    explain: "Proof Records checked this automatically against the named source at the time of issue.",
  },
  evidence_verified: {
    title: "Evidence verified",
    explain: "A Proof Records reviewer confirmed this against the evidence and source named below.",
  },
};

export const STATUS_TEXT: Record<string, { label: string; tone: "ok" | "warn" | "bad" | "muted"; explain: string }> = {
  active: { label: "Active", tone: "ok", explain: "This record is in force." },
  suspended: { label: "Suspended", tone: "warn", explain: "This record is suspended and must not be relied on until it is reinstated." },
  revoked: { label: "Revoked", tone: "bad", explain: "This record has been revoked and must not be relied on." },
  expired: { label: "Expired", tone: "muted", explain: "This record's validity period has ended; it must not be relied on." },
  superseded: { label: "Superseded", tone: "muted", explain: "This record has been replaced by a newer one." },
  // Never on a public certificate (not issued): shown to the owner and to reviewers only.
  pending_review: { label: "Pending review", tone: "warn", explain: "Waiting for a reviewer; nothing is issued yet." },
  rejected: { label: "Rejected", tone: "bad", explain: "A reviewer rejected this submission; it was never issued." },
};
