import { timestamp } from "drizzle-orm/pg-core";

/** Timestamps are timezone-aware and surface as JS Dates (millisecond precision on the wire). */
export const ts = (name: string) => timestamp(name, { withTimezone: true, mode: "date" });
export const createdAt = () => ts("created_at").notNull().defaultNow();
