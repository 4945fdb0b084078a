import { log } from "@/lib/log/logger";
import { sendMail } from "@/lib/mail/send-mail";
import { recordUrls } from "@/lib/record-model/urls";

/** A watch that fired, as its owner is told by mail. */
export type WatchMail = { to: string; watch: { kind: string; value: string }; how: "exact" | "confusable" | "lookalike"; value: string; recordId: string };

/**
 * Tell each watcher by mail, after the transaction that fired the watch has committed. Best
 * effort: a mail that cannot be sent is logged; the `watch.matched` event (webhooks, with
 * their retries, and GET /api/v1/events) and the portal's /watches page are the durable record.
 */
export async function sendWatchMails(mails: readonly WatchMail[]): Promise<void> {
  for (const m of mails) {
    const how = m.how === "exact" ? "carries" : "carries a look-alike of";
    await sendMail({
      to: m.to,
      subject: `Impersonation watch: a record of another account ${how} your ${m.watch.kind} ${m.watch.value}`,
      text:
        `A live public record issued for another account ${how} the ${m.watch.kind} you watch.\n\n` +
        `Watched: ${m.watch.value}\nOn the record: ${m.value}${m.how === "confusable" ? " (a confusable: it looks the same but is written with other characters)" : m.how === "lookalike" ? " (a look-alike: one letter changed, added, dropped or swapped, or letters that pass for others, such as rn for m)" : ""}\n\n` +
        `Certificate: ${recordUrls(m.recordId).certificate_url}\n\n` +
        `If this is not you, report the record from its certificate page. Your watches: ${recordUrls(m.recordId).certificate_url.replace(/\/r\/.*$/, "/watches")}\n`,
    }).catch((err) => log().error({ err, record: m.recordId }, "could not send a watch mail"));
  }
}
