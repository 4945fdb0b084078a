import { sql } from "drizzle-orm";
import { bigint, index, pgTable, primaryKey, text, uniqueIndex } from "drizzle-orm/pg-core";
import { accounts } from "./accounts";
import { createdAt, ts } from "./columns";
import { records } from "./records";

/**
 * Impersonation watches (lib/watches, docs/api.md): an account watches a name, domain, IBAN,
 * wallet or LEI; a live public record of another account carrying the value (or, for names and
 * domains, a TR39 confusable of it) fires `watch.matched`. `matchKey` is the value in its
 * normal form; `skeleton` the TR39 skeleton of that form (names and domains only).
 * `origin`: `user` (made through the API or portal) or `default` (made for a verified
 * organisation: its legal name, LEI and proved domains). Deleting a watch deletes its matches.
 */
export const watches = pgTable("watches", {
  id: text("id").primaryKey(),
  accountId: text("account_id").notNull().references(() => accounts.id),
  kind: text("kind").$type<"name" | "domain" | "iban" | "wallet" | "lei">().notNull(),
  value: text("value").notNull(),
  matchKey: text("match_key").notNull(),
  skeleton: text("skeleton"),
  origin: text("origin").$type<"user" | "default">().notNull().default("user"),
  /** Names and domains: the look-alike keys (lib/watches/lookalike.ts: folded form and its one-deletion forms), GIN-indexed. */
  lookalikeKeys: text("lookalike_keys").array().notNull().default(sql`'{}'::text[]`),
  createdAt: createdAt(),
}, (t) => [
  index("watches_lookalike_idx").using("gin", t.lookalikeKeys),
  uniqueIndex("watches_account_value_idx").on(t.accountId, t.kind, t.matchKey),
  index("watches_match_idx").on(t.kind, t.matchKey),
  index("watches_skeleton_idx").on(t.kind, t.skeleton),
]);

/** A watch fires once per record: the row is written with the `watch.matched` event. */
export const watchMatches = pgTable("watch_matches", {
  watchId: text("watch_id").notNull().references(() => watches.id, { onDelete: "cascade" }),
  recordId: text("record_id").notNull().references(() => records.id),
  /** Exact value, a confusable (`skeleton`) or a look-alike (`lookalike_keys`: one edit or an ASCII trick). */
  how: text("how").$type<"exact" | "confusable" | "lookalike">().notNull(),
  matchedValue: text("matched_value").notNull(),
  eventId: text("event_id"),
  createdAt: createdAt(),
}, (t) => [primaryKey({ columns: [t.watchId, t.recordId] }), index("watch_matches_record_idx").on(t.recordId)]);

/**
 * Badge sightings: the host (from `Origin`, nothing else) each record's badge was loaded on,
 * counted. `covered` says whether the record covers that host (its subject or proved domain);
 * an uncovered host is reported to the owner once (`reportedAt`, `badge.seen_elsewhere`).
 */
export const badgeSightings = pgTable("badge_sightings", {
  recordId: text("record_id").notNull().references(() => records.id),
  host: text("host").notNull(),
  count: bigint("count", { mode: "number" }).notNull().default(1),
  covered: text("covered").$type<"yes" | "no">().notNull(),
  firstSeenAt: createdAt(),
  lastSeenAt: ts("last_seen_at").notNull().defaultNow(),
  reportedAt: ts("reported_at"),
}, (t) => [primaryKey({ columns: [t.recordId, t.host] }), index("badge_sightings_uncovered_idx").on(t.covered, t.firstSeenAt)]);
