import { integer, pgTable, text } from "drizzle-orm/pg-core";
import { records } from "./records";
import { createdAt } from "./columns";

/**
 * Each record's place in the Bitstring Status Lists of its W3C credential (lib/vc): one
 * global index, given the first time the record's credential is asked for and never changed.
 * List `n` holds indexes [n·131072, (n+1)·131072); the bit at `index mod 131072` is the
 * record's. The same index is used in the revocation and the suspension list.
 */
export const vcStatusEntries = pgTable("vc_status_entries", {
  recordId: text("record_id").primaryKey().references(() => records.id),
  statusIndex: integer("status_index").notNull().unique().generatedByDefaultAsIdentity({ startWith: 0, minValue: 0 }),
  createdAt: createdAt(),
});
