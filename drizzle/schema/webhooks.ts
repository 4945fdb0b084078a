import { index, integer, jsonb, pgTable, text, uniqueIndex } from "drizzle-orm/pg-core";
import { accounts } from "./accounts";
import { createdAt, ts } from "./columns";
import { events } from "./events";

/** A customer's endpoint. It receives the events of the environment of the key that made it. */
export const webhooks = pgTable(
  "webhooks",
  {
    id: text("id").primaryKey(),
    accountId: text("account_id").notNull().references(() => accounts.id),
    environment: text("environment", { enum: ["sandbox", "live"] }).notNull(),
    url: text("url").notNull(),
    /** Event types to send; empty = all. */
    events: jsonb("events").$type<string[]>().notNull(),
    description: text("description"),
    /** `whsec_…`: HMAC keys are symmetric, so the service must keep it to sign. Never shown again. */
    secret: text("secret").notNull(),
    /** The secret before the last rotation: deliveries carry a `v1` signature with it too until it expires. */
    previousSecret: text("previous_secret"),
    previousSecretExpiresAt: ts("previous_secret_expires_at"),
    status: text("status", { enum: ["enabled", "disabled"] }).notNull(),
    disabledReason: text("disabled_reason"),
    consecutiveFailures: integer("consecutive_failures").notNull().default(0),
    createdAt: createdAt(),
    deletedAt: ts("deleted_at"),
  },
  (t) => [index("webhooks_account_idx").on(t.accountId, t.environment)],
);

/** One event to one endpoint; retried on the schedule until it succeeds or runs out. */
export const webhookDeliveries = pgTable(
  "webhook_deliveries",
  {
    id: text("id").primaryKey(),
    webhookId: text("webhook_id").notNull().references(() => webhooks.id),
    eventId: text("event_id").notNull().references(() => events.id),
    status: text("status", { enum: ["pending", "succeeded", "failed"] }).notNull(),
    attempts: integer("attempts").notNull().default(0),
    nextAttemptAt: ts("next_attempt_at").notNull(),
    /** A worker's claim: while in the future, no other worker sends this delivery. */
    lockedUntil: ts("locked_until"),
    lastAttemptAt: ts("last_attempt_at"),
    createdAt: createdAt(),
  },
  (t) => [
    uniqueIndex("webhook_deliveries_once_idx").on(t.webhookId, t.eventId),
    index("webhook_deliveries_due_idx").on(t.status, t.nextAttemptAt),
  ],
);

export const webhookAttempts = pgTable(
  "webhook_attempts",
  {
    id: text("id").primaryKey(),
    deliveryId: text("delivery_id").notNull().references(() => webhookDeliveries.id),
    attemptedAt: ts("attempted_at").notNull(),
    statusCode: integer("status_code"),
    latencyMs: integer("latency_ms").notNull(),
    error: text("error"),
    /** The answer's first 1 KiB (UTF-8, cut at a character), for the events API's delivery detail. */
    responseExcerpt: text("response_excerpt"),
  },
  (t) => [index("webhook_attempts_delivery_idx").on(t.deliveryId, t.attemptedAt)],
);
