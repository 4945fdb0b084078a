import type { QueuedMail } from "@/lib/mail/mail-outbox";
import { recordUrls } from "@/lib/record-model/urls";

/** A watch that fired, as its owner is told by mail. */
export type WatchMail = { to: string; watch: { kind: string; value: string }; how: "exact" | "confusable" | "lookalike"; value: string; recordId: string };

/**
 * The mail that tells a watcher its watch fired, queued with the match (lib/mail/mail-outbox.ts)
 * and sent by the outbox worker; the `watch.matched` event (webhooks, GET /api/v1/events) and
 * the portal's /watches page are the record of it too. Its subject carries only the watcher's
 * own value, never text the other account chose.
 */
export function watchMail(m: WatchMail): QueuedMail {
  const how = m.how === "exact" ? "carries" : "carries a look-alike of";
  return {
    to: m.to,
    subject: `Impersonation watch: a record of another account ${how} your ${m.watch.kind} ${m.watch.value}`,
    text:
      `A live public record issued for another account ${how} the ${m.watch.kind} you watch.\n\n` +
      `Watched: ${m.watch.value}\nOn the record: ${m.value}${m.how === "confusable" ? " (a confusable: it looks the same but is written with other characters)" : m.how === "lookalike" ? " (a look-alike: one letter changed, added, dropped or swapped, or letters that pass for others, such as rn for m)" : ""}\n\n` +
      `Certificate: ${recordUrls(m.recordId).certificate_url}\n\n` +
      `If this is not you, report the record from its certificate page. Your watches: ${recordUrls(m.recordId).certificate_url.replace(/\/r\/.*$/, "/watches")}\n`,
  };
}
