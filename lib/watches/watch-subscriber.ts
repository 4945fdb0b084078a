import { inArray } from "drizzle-orm";
import { records } from "@/drizzle/schema";
import { queueMail } from "@/lib/mail/mail-outbox";
import { onOutboxTask } from "@/lib/outbox/tasks";
import { recordValuesOf } from "@/lib/record-model/record-values";
import { matchAccountName, matchWatches } from "./match-watches";
import { watchMail } from "./watch-mail";

/**
 * The impersonation watches as a subscriber of the outbox (lib/outbox/tasks.ts): records issued
 * live and public (`records.issued`, queued by the issuing path: a create, a batch, an approval)
 * and an account's new name (`account.renamed`) are matched after their write committed, and the
 * watchers' mails are queued with the matches. Called once at start by every process that runs
 * the outbox worker.
 */
export function subscribeWatches() {
  onOutboxTask("records.issued", async (tx, payload, at) => {
    const ids = (payload.ids as string[] | undefined) ?? [];
    if (ids.length === 0) return;
    const rows = await tx.select().from(records).where(inArray(records.id, ids));
    const mails = await matchWatches(tx, rows.map((row) => ({ row, values: recordValuesOf(row) })), at);
    await queueMail(tx, ...mails.map(watchMail));
  });
  onOutboxTask("account.renamed", async (tx, payload, at) => {
    const mails = await matchAccountName(tx, String(payload.accountId), typeof payload.name === "string" ? payload.name : null, at);
    await queueMail(tx, ...mails.map(watchMail));
  });
}
