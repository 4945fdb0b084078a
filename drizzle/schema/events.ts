import { sql } from "drizzle-orm";
import { bigserial, index, integer, jsonb, pgTable, primaryKey, text } from "drizzle-orm/pg-core";
import { accounts } from "./accounts";
import { createdAt, ts } from "./columns";

/** Transactional outbox: written in the same transaction as the change it announces. */
export const events = pgTable(
  "events",
  {
    id: text("id").primaryKey(),
    accountId: text("account_id").notNull().references(() => accounts.id),
    environment: text("environment", { enum: ["sandbox", "live"] }).notNull(),
    type: text("type").notNull(),
    /** The exact JSON text to deliver: webhook signatures cover the raw body, and retries resend the same bytes. */
    payload: text("payload").notNull(),
    /** Set once the event was fanned out to the account's webhooks (or there were none). */
    dispatchedAt: ts("dispatched_at"),
    /** webhook.test events go to this one endpoint only. */
    onlyWebhookId: text("only_webhook_id"),
    /** The record the event is about (`data.record.verification_id`), for GET /api/v1/events?record_id=. */
    recordId: text("record_id"),
    createdAt: createdAt(),
  },
  (t) => [
    index("events_undispatched_idx").on(t.createdAt).where(sql`dispatched_at is null`),
    /** GET /api/v1/events: an account's events of one environment, newest first (keyset on created_at, id). */
    index("events_account_recent_idx").on(t.accountId, t.environment, t.createdAt, t.id),
    index("events_record_idx").on(t.recordId, t.createdAt).where(sql`record_id is not null`),
  ],
);

export const idempotencyKeys = pgTable(
  "idempotency_keys",
  {
    accountId: text("account_id").notNull().references(() => accounts.id),
    environment: text("environment", { enum: ["sandbox", "live"] }).notNull(),
    endpoint: text("endpoint").notNull(),
    key: text("key").notNull(),
    requestHash: text("request_hash").notNull(),
    state: text("state", { enum: ["running", "done"] }).notNull(),
    responseStatus: integer("response_status"),
    /** The answer as sent (JSON text), so a replay is byte-identical to the original. */
    responseBody: text("response_body"),
    lockedAt: ts("locked_at").notNull(),
    createdAt: createdAt(),
  },
  (t) => [
    primaryKey({ columns: [t.accountId, t.environment, t.endpoint, t.key] }),
    index("idempotency_created_idx").on(t.createdAt),
  ],
);

/**
 * Work the outbox hands to the service's own subscribers (lib/outbox/tasks.ts): written in the
 * transaction that made the change, taken by the outbox worker after it commits, in order, each
 * in a transaction of its own that deletes it. The impersonation watches subscribe here to
 * issued records and renamed accounts, so no issuing path calls them. `attempts`: tries that
 * failed (a task failing TASK_MAX_ATTEMPTS times is left with its error for an operator).
 */
export const outboxTasks = pgTable(
  "outbox_tasks",
  {
    id: bigserial("id", { mode: "number" }).primaryKey(),
    kind: text("kind").notNull(),
    payload: jsonb("payload").$type<Record<string, unknown>>().notNull(),
    createdAt: createdAt(),
    attempts: integer("attempts").notNull().default(0),
    lastError: text("last_error"),
  },
  (t) => [index("outbox_tasks_kind_idx").on(t.kind, t.id)],
);
