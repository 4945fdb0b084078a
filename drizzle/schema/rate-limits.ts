import { integer, pgTable, text } from "drizzle-orm/pg-core";
import { ts } from "./columns";

/**
 * Fixed-window counters that several server processes share (lib/http/pg-rate-limiter.ts):
 * one row per limited key (`lookup:<client address>`), counted with one atomic upsert. Rows
 * of windows long past are deleted by the sweep.
 */
export const rateLimits = pgTable("rate_limits", {
  key: text("key").primaryKey(),
  windowStart: ts("window_start").notNull(),
  count: integer("count").notNull(),
});
