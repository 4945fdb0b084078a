import { eq } from "drizzle-orm";
import { accounts } from "@/drizzle/schema";
import type { DbOrTx } from "@/lib/db/client";
import { getEnv } from "@/lib/env";
import { queueMail } from "@/lib/mail/mail-outbox";
import { writeEvent } from "@/lib/outbox/write-event";

/**
 * What staff decided about an account's submission, record, organisation application, plan
 * request or the account itself (issue 39, item 4). Each notice is an `account.notice` event
 * (webhooks, events API) and a mail to the account's confirmed address, both written in the
 * transaction that made the decision: a rolled-back decision tells nobody, and the mail is sent
 * by the outbox worker, never inside the request. The subject is ours alone (no text a customer
 * or reporter typed); the reason staff gave is in the body.
 */
export const NOTICE_KINDS = [
  "submission.approved", "submission.rejected",
  "record.suspended", "record.reinstated", "record.revoked",
  "organisation.verified", "organisation.rejected", "organisation.removed",
  "plan_request.approved", "plan_request.declined",
  "account.suspended", "account.reinstated",
] as const;
export type NoticeKind = (typeof NOTICE_KINDS)[number];

export type Notice = {
  accountId: string;
  kind: NoticeKind;
  /** What it is about: a record id, an application id, a plan request id, or the account id. */
  subjectId: string;
  /** The reason staff gave (shown to the account); null when there is none (an approval). */
  reason: string | null;
  environment?: "live" | "sandbox";
  at: Date;
};

const SUBJECT: Record<NoticeKind, (id: string) => string> = {
  "submission.approved": (id) => `Your submission ${id} was approved`,
  "submission.rejected": (id) => `Your submission ${id} was rejected`,
  "record.suspended": (id) => `Your record ${id} was suspended by Proof Records`,
  "record.reinstated": (id) => `Your record ${id} was reinstated by Proof Records`,
  "record.revoked": (id) => `Your record ${id} was revoked by Proof Records`,
  "organisation.verified": () => "Your organisation is verified",
  "organisation.rejected": () => "Your organisation verification was not approved",
  "organisation.removed": () => "Your organisation verification was removed",
  "plan_request.approved": () => "Your plan request was approved",
  "plan_request.declined": () => "Your plan request was declined",
  "account.suspended": () => "Your Proof Records account was suspended",
  "account.reinstated": () => "Your Proof Records account was reinstated",
};

const BODY: Record<NoticeKind, (id: string, base: string) => string> = {
  "submission.approved": (id, base) => `A Proof Records reviewer approved submission ${id}; the record is issued.\nIts certificate: ${base}/r/${id}`,
  "submission.rejected": (id, base) => `A Proof Records reviewer rejected submission ${id}.\nSee it in the portal: ${base}/records/${id}`,
  "record.suspended": (id, base) => `Proof Records staff suspended record ${id}: its certificate, signed status and lookups now say so.\n${base}/r/${id}`,
  "record.reinstated": (id, base) => `Proof Records staff reinstated record ${id}.\n${base}/r/${id}`,
  "record.revoked": (id, base) => `Proof Records staff revoked record ${id}. Revocation is final.\n${base}/r/${id}`,
  "organisation.verified": (id, base) => `Your organisation verification (${id}) was approved: your records are now stated by your verified organisation.\n${base}/organisation`,
  "organisation.rejected": (id, base) => `Your organisation verification (${id}) was not approved.\nYou can apply again at ${base}/organisation`,
  "organisation.removed": (_id, base) =>
    "Proof Records staff removed your account's organisation verification: your records are no longer stated by a verified organisation, " +
    `and records resting on it are suspended until it is verified again.\nYou can apply again at ${base}/organisation`,
  "plan_request.approved": (id, base) => `Your plan request (${id}) was approved: your account may now work in live.\nCreate a live API key at ${base}/developers.`,
  "plan_request.declined": (id, base) => `Your plan request (${id}) was declined.\nYou can send a new request at ${base}/developers.`,
  "account.suspended": (_id, base) =>
    "Proof Records staff suspended your account: its live records are suspended, its API keys are refused, its webhooks are disabled and signing in is refused until it is reinstated.\n" +
    "To contest it, reply to this mail.",
  "account.reinstated": (_id, base) => `Proof Records staff reinstated your account: you can sign in and use your keys again at ${base}/developers.\nRecords suspended with the account were reinstated.`,
};

/** Write each notice's event and queue its mail, in the caller's transaction. */
export async function notify(tx: DbOrTx, ...notices: Notice[]) {
  const base = getEnv().publicBaseUrl;
  for (const n of notices) {
    const [acct] = await tx.select({ email: accounts.email, confirmed: accounts.emailConfirmedAt }).from(accounts).where(eq(accounts.id, n.accountId));
    if (!acct) continue;
    await writeEvent(tx, {
      accountId: n.accountId, environment: n.environment ?? "live", type: "account.notice", at: n.at,
      data: { notice: { kind: n.kind, subject_id: n.subjectId, reason: n.reason, at: n.at.toISOString() } },
    });
    // Only a proven address is mailed (an address never confirmed may not be the account's);
    // a sandbox decision is an event only (a test proves nothing and mails nobody).
    if (!acct.confirmed || n.environment === "sandbox") continue;
    await queueMail(tx, {
      to: acct.email,
      subject: SUBJECT[n.kind](n.subjectId),
      text: [BODY[n.kind](n.subjectId, base), ...(n.reason ? ["", `Reason: ${n.reason}`] : []), "", "— Proof Records"].join("\n"),
    });
  }
}
