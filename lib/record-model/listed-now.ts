import { and, eq, gt, isNull, or, type SQL } from "drizzle-orm";
import { records } from "@/drizzle/schema";

/**
 * The records anyone may find: live, public and active now (not past their expiry, whatever
 * the sweep has persisted yet). The one condition of the directory, the lookup and /check.
 */
export const listedNow = (now: Date): SQL =>
  and(eq(records.environment, "live"), eq(records.visibility, "public"), eq(records.status, "active"), or(isNull(records.expiresAt), gt(records.expiresAt, now)))!;
