import { z } from "zod";

/** The answers of /api/health and /api/health/live (app/api/health/), which build them inline. */

export const healthSchema = z
  .strictObject({
    status: z.enum(["ok", "unavailable"]),
    database: z.enum(["ok", "unreachable"]),
  })
  .meta({ id: "Health" });

export const livenessSchema = z.strictObject({ status: z.literal("ok") }).meta({ id: "Liveness" });
