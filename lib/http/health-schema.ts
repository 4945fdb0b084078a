import { z } from "zod";

/** The answers of /api/health and /api/health/live (app/api/health/), which build them inline. */

export const healthSchema = z
  .strictObject({
    status: z.enum(["ok", "unavailable"]),
    database: z.enum(["ok", "unreachable"]),
  })
  .meta({ id: "Health" });

export const readinessSchema = z
  .strictObject({
    status: z.enum(["ok", "unavailable"]).describe("ok only when the database answers, every migration is applied and a signing key is loaded."),
    database: z.enum(["ok", "unreachable"]),
    migrations: z.strictObject({
      status: z.enum(["ok", "pending", "unknown"]),
      applied: z.number().int().nullable(),
      expected: z.number().int().describe("The migrations this build ships."),
    }),
    signing_key: z.enum(["ok", "missing"]),
  })
  .meta({ id: "Readiness" });

export const livenessSchema = z.strictObject({ status: z.literal("ok") }).meta({ id: "Liveness" });
