import { z } from "zod";
import type { Assert, Out, SameKeys } from "@/lib/http/response-checks";
import { environmentSchema, timestampSchema } from "@/lib/http/response-primitives";
import { SUBSCRIBABLE_EVENTS } from "@/lib/outbox/write-event";
import type { createWebhook, listDeliveries, sendTestEvent } from "./manage-webhooks";

/** Webhook endpoints, test events and deliveries: the contract of ./manage-webhooks. */

export const webhookSchema = z
  .strictObject({
    object: z.literal("webhook"),
    id: z.string().regex(/^wh_[0-9a-z]{20}$/),
    url: z.string().describe("The destination (https, public address)."),
    events: z.array(z.enum(SUBSCRIBABLE_EVENTS)).describe("The event types sent; all when none were chosen."),
    description: z.string().nullable(),
    status: z.enum(["enabled", "disabled"]),
    disabled_reason: z.string().nullable().describe("Why deliveries stopped (failure threshold, 410 Gone)."),
    environment: environmentSchema,
    created_at: timestampSchema,
    secret: z.string().regex(/^whsec_/).optional().describe("Standard Webhooks signing secret. Only in the answer to the creation."),
  })
  .meta({ id: "Webhook" });

export const webhookListSchema = z
  .strictObject({ object: z.literal("list"), data: z.array(webhookSchema), has_more: z.boolean() })
  .meta({ id: "WebhookList" });

export const webhookDeletedSchema = z
  .strictObject({ object: z.literal("webhook"), id: z.string(), deleted: z.literal(true) })
  .meta({ id: "WebhookDeleted" });

export const webhookTestSchema = z
  .strictObject({ object: z.literal("event"), id: z.string().regex(/^evt_/), type: z.string(), webhook_id: z.string(), created_at: timestampSchema })
  .meta({ id: "WebhookTestEvent" });

const webhookAttemptSchema = z.strictObject({
  at: timestampSchema,
  status_code: z.number().int().nullable().describe("The endpoint's HTTP status; null when no answer came."),
  latency_ms: z.number().int(),
  error: z.string().nullable(),
});

export const webhookDeliveryListSchema = z
  .strictObject({
    object: z.literal("list"),
    data: z.array(
      z.strictObject({
        object: z.literal("webhook_delivery"),
        id: z.string(),
        event_id: z.string(),
        event_type: z.string(),
        status: z.enum(["pending", "succeeded", "failed"]),
        attempts: z.array(webhookAttemptSchema),
        next_attempt_at: timestampSchema.nullable(),
        created_at: timestampSchema,
      }),
    ),
    has_more: z.boolean(),
  })
  .meta({ id: "WebhookDeliveryList" });

export type _WebhookSchemaChecks = [
  Assert<SameKeys<Awaited<ReturnType<typeof createWebhook>>, Out<typeof webhookSchema>>>,
  Assert<SameKeys<Awaited<ReturnType<typeof listDeliveries>>["data"][number], Out<typeof webhookDeliveryListSchema>["data"][number]>>,
  Assert<SameKeys<Awaited<ReturnType<typeof sendTestEvent>>, Out<typeof webhookTestSchema>>>,
];
