import { sql } from "drizzle-orm";
import type { DbOrTx } from "@/lib/db/client";
import { getEnv } from "@/lib/env";

/**
 * What a disabled endpoint keeps for when it is enabled again: the pending deliveries of its
 * newest WEBHOOK_BACKLOG_MAX events raised within WEBHOOK_BACKLOG_DAYS. The others are
 * recorded failed without being sent. Endpoints that are enabled are left alone (their
 * retries run out on the schedule). Rows another transaction holds are skipped, never
 * waited for, so this cannot deadlock with a delete or an outcome being recorded; a later
 * fan-out or the re-enabling trims them.
 */
export async function trimBacklog(tx: DbOrTx, webhookIds: string[]): Promise<void> {
  if (webhookIds.length === 0) return;
  const { WEBHOOK_BACKLOG_MAX: max, WEBHOOK_BACKLOG_DAYS: days } = getEnv();
  await tx.execute(sql`
    with ranked as (
      select d.id, e.created_at, row_number() over (partition by d.webhook_id order by e.created_at desc, e.id desc) as n
      from webhook_deliveries d join webhooks w on w.id = d.webhook_id join events e on e.id = d.event_id
      where d.webhook_id in (${sql.join(webhookIds.map((id) => sql`${id}`), sql`, `)}) and d.status = 'pending' and w.status = 'disabled'
    ), dropped as (
      select d.id from webhook_deliveries d join ranked r on r.id = d.id
      where r.n > ${max} or r.created_at < now() - make_interval(days => ${days})
      for update of d skip locked
    )
    update webhook_deliveries d set status = 'failed', locked_until = null from dropped where d.id = dropped.id`);
}
