import type { DbOrTx } from "@/lib/db/client";
import { matchWatches } from "@/lib/watches/match-watches";
import type { WatchMail } from "@/lib/watches/send-watch-mail";
import type { RecordBundle } from "./insert-record-bundle";

/**
 * The impersonation watches new records fire (lib/watches), in the transaction that writes
 * them: their public answer is read back from their `record.issued` event only when a watch
 * fires, so a batch that fires none parses nothing.
 */
export function watchMatchesOf(tx: DbOrTx, bundles: readonly RecordBundle[]): Promise<WatchMail[]> {
  return matchWatches(tx, bundles.map((b) => ({
    row: b.row, values: b.values,
    record: () => (JSON.parse(b.event.payload) as { data: { record: Record<string, unknown> } }).data.record,
  })), bundles[0]?.row.createdAt ?? new Date());
}
