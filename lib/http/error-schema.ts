import { z } from "zod";
import { ERROR_CODES, type ErrorCode, type ErrorType, type errorBody } from "./errors";
import type { Assert, Out, SameKeys } from "./response-checks";

/** The one error envelope: the contract of errorBody (./errors). */

/** Every error `type` of the contract, in its order. */
export const ERROR_TYPES = [
  "invalid_request_error",
  "authentication_error",
  "payment_required",
  "rate_limit_error",
  "idempotency_error",
  "conflict",
  "not_found",
  "api_error",
] as const satisfies readonly ErrorType[];

export const errorCodeSchema = z
  .enum(Object.keys(ERROR_CODES) as [ErrorCode, ...ErrorCode[]])
  .meta({ id: "ErrorCode", description: "Stable, machine-readable reason." });

export const fieldErrorSchema = z
  .strictObject({
    code: errorCodeSchema,
    param: z.string().optional(),
    message: z.string(),
  })
  .meta({ id: "FieldError" });

export const errorSchema = z
  .strictObject({
    error: z.strictObject({
      type: z.enum(ERROR_TYPES),
      code: errorCodeSchema,
      message: z.string().describe("For humans; may change."),
      param: z.string().optional().describe("The offending field, e.g. 'evidence.lei' or 'records[3].claim'."),
      rows: z
        .array(z.strictObject({ index: z.number().int().min(0), errors: z.array(fieldErrorSchema) }))
        .optional()
        .describe("Row-level errors of a batch."),
      request_id: z.string().describe("Same as the Request-Id header."),
    }),
  })
  .meta({ id: "Error", description: "The one error envelope." });

export type _ErrorSchemaChecks = [
  Assert<SameKeys<ReturnType<typeof errorBody>["error"], Out<typeof errorSchema>["error"]>>,
  // every ErrorType of ./errors is listed
  Assert<[Exclude<ErrorType, (typeof ERROR_TYPES)[number]>] extends [never] ? true : false>,
];
