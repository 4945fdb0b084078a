import { z } from "zod";
import type { Assert, Out, SameKeys } from "@/lib/http/response-checks";
import { environmentSchema, timestampSchema } from "@/lib/http/response-primitives";
import { SUBSCRIBABLE_EVENTS } from "@/lib/outbox/write-event";
import type { getEvent, listEvents } from "./events-api";
import type { createWebhook, listDeliveries, replayEvent, sendTestEvent } from "./manage-webhooks";

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
    previous_secret_expires_at: timestampSchema.nullable()
      .describe("While a rotation overlaps: when the secret before it stops signing (deliveries carry a v1 signature with each until then)."),
    secret: z.string().regex(/^whsec_/).optional()
      .describe("Standard Webhooks signing secret. Only in the answer to the creation and to a rotation."),
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
  response: z.string().nullable().describe("The answer's first 1 KiB as text; null when no answer came (or before this was kept)."),
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

export const webhookReplayedSchema = z
  .strictObject({
    object: z.literal("webhook_delivery"),
    id: z.string(),
    webhook_id: z.string(),
    event_id: z.string(),
    event_type: z.string(),
    status: z.literal("pending"),
    next_attempt_at: timestampSchema,
  })
  .meta({ id: "WebhookReplayed" });

const eventFields = {
  object: z.literal("event"),
  id: z.string().regex(/^evt_/),
  type: z.string().describe("record.issued, record.pending_review, record.rejected, record.status_changed, principal_link.changed, watch.matched, badge.seen_elsewhere, account.notice or webhook.test."),
  created_at: timestampSchema,
  environment: environmentSchema,
  record_id: z.string().nullable().describe("The record the event is about, if any."),
  data: z.record(z.string(), z.unknown()).describe("The event's data, exactly as its webhook deliveries carry it."),
};

export const eventSchema = z.strictObject(eventFields).meta({ id: "Event" });

export const eventListSchema = z
  .strictObject({ object: z.literal("list"), data: z.array(eventSchema), has_more: z.boolean() })
  .meta({ id: "EventList" });

export const eventDetailSchema = z
  .strictObject({
    ...eventFields,
    deliveries: z.array(
      z.strictObject({
        object: z.literal("webhook_delivery"),
        id: z.string(),
        webhook_id: z.string(),
        url: z.string(),
        status: z.enum(["pending", "succeeded", "failed"]),
        attempts: z.array(webhookAttemptSchema),
        next_attempt_at: timestampSchema.nullable(),
      }),
    ).describe("One per endpoint the event went to, oldest first."),
  })
  .meta({ id: "EventDetail" });

export type _WebhookSchemaChecks = [
  Assert<SameKeys<Awaited<ReturnType<typeof createWebhook>>, Out<typeof webhookSchema>>>,
  Assert<SameKeys<Awaited<ReturnType<typeof listDeliveries>>["data"][number], Out<typeof webhookDeliveryListSchema>["data"][number]>>,
  Assert<SameKeys<Awaited<ReturnType<typeof sendTestEvent>>, Out<typeof webhookTestSchema>>>,
  Assert<SameKeys<Awaited<ReturnType<typeof replayEvent>>, Out<typeof webhookReplayedSchema>>>,
  Assert<SameKeys<Awaited<ReturnType<typeof listEvents>>["data"][number], Out<typeof eventSchema>>>,
  Assert<SameKeys<Awaited<ReturnType<typeof getEvent>>, Out<typeof eventDetailSchema>>>,
  Assert<SameKeys<Awaited<ReturnType<typeof getEvent>>["deliveries"][number], Out<typeof eventDetailSchema>["deliveries"][number]>>,
];
