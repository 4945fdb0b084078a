import { bigserial, index, integer, pgTable, text } from "drizzle-orm/pg-core";
import { records } from "./records";
import { createdAt } from "./columns";

/**
 * Each record's place in the Bitstring Status Lists of its W3C credential (lib/public/vc): one
 * global index, given the first time the record's credential is asked for and never changed.
 * List `n` holds indexes [n·131072, (n+1)·131072); the bit at `index mod 131072` is the
 * record's. The same index is used in the revocation and the suspension list.
 */
export const vcStatusEntries = pgTable("vc_status_entries", {
  recordId: text("record_id").primaryKey().references(() => records.id),
  statusIndex: integer("status_index").notNull().unique().generatedByDefaultAsIdentity({ startWith: 0, minValue: 0 }),
  createdAt: createdAt(),
});

/**
 * Which status-list positions may have changed, in order (`seq`): written by database triggers
 * (migration 0028) whenever a record with a status index changes status, expiry or
 * environment, and when a record gets its index. A process holding a built list reads only the
 * rows after the last `seq` it applied (lib/public/vc/status-list.ts) and re-reads those records:
 * a list is updated, never rebuilt, after a status change.
 */
export const statusListChanges = pgTable(
  "status_list_changes",
  {
    seq: bigserial("seq", { mode: "number" }).primaryKey(),
    list: integer("list").notNull(),
    statusIndex: integer("status_index").notNull(),
    createdAt: createdAt(),
  },
  (t) => [index("status_list_changes_list_idx").on(t.list, t.seq)],
);
