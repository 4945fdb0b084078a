import type { DbOrTx } from "@/lib/db/client";
import { matchWatches } from "@/lib/watches/match-watches";
import type { WatchMail } from "@/lib/watches/send-watch-mail";
import type { RecordBundle } from "./insert-record-bundle";

/**
 * The impersonation watches new records fire (lib/watches), in the transaction that writes
 * them; a batch whose records carry nothing watched costs one indexed query.
 */
export function watchMatchesOf(tx: DbOrTx, bundles: readonly RecordBundle[]): Promise<WatchMail[]> {
  return matchWatches(tx, bundles.map((b) => ({ row: b.row, values: b.values })), bundles[0]?.row.createdAt ?? new Date());
}
