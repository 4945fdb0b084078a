import { sql } from "drizzle-orm";
import { customType, index, integer, jsonb, pgTable, text, uniqueIndex } from "drizzle-orm/pg-core";
import { accounts } from "./accounts";
import { createdAt, ts } from "./columns";

const bytea = customType<{ data: Uint8Array; driverData: Uint8Array }>({ dataType: () => "bytea" });

/**
 * Verified organisations (CONTRACT "Trust model" → "The speaking account"): the legal entity a
 * reviewer confirmed an account acts for. One row per account at most; while it exists the
 * account's public name is `legalName`, locked until a new verification. `status` turns to
 * `lapsed` when the LEI re-check finds the entity or its registration no longer active.
 * One LEI belongs to at most one account at a time (unique index).
 */
export const organisations = pgTable(
  "organisations",
  {
    accountId: text("account_id").primaryKey().references(() => accounts.id),
    legalName: text("legal_name").notNull(),
    /** legalNameKey(legalName): what /check compares an operator name with (indexed). */
    nameKey: text("name_key").notNull(),
    /** Null for entities verified from documents (sole traders, entities without an LEI). */
    lei: text("lei"),
    jurisdiction: text("jurisdiction"),
    basis: text("basis", { enum: ["lei_register", "documents"] }).notNull(),
    status: text("status", { enum: ["verified", "lapsed"] }).notNull().default("verified"),
    /** Why the status is `lapsed` (the register's answer), null while verified. */
    statusReason: text("status_reason"),
    verifiedAt: ts("verified_at").notNull(),
    /** Domains (bare hosts) the reviewer confirmed belong to the entity; shown only while still proved by the account. */
    domains: jsonb("domains").$type<string[]>().notNull().default([]),
    /** The application (organisation_verifications.id) whose approval made this row; null when staff recorded it. */
    verificationId: text("verification_id"),
    /** When the LEI register was last asked (the re-check). */
    checkedAt: ts("checked_at"),
    updatedAt: ts("updated_at").notNull().defaultNow(),
  },
  (t) => [
    uniqueIndex("organisations_lei_idx").on(t.lei),
    index("organisations_name_key_idx").on(t.nameKey),
    // The directory's "verified organisations with this name" (lib/public/directory/verified-organisations.ts): a word search, not a scan.
    index("organisations_verified_name_words_idx").using("gin", sql`to_tsvector('simple', ${t.legalName})`).where(sql`status = 'verified'`),
  ],
);

/** An account's application to be a verified organisation, and the reviewer's decision on it. */
export const organisationVerifications = pgTable(
  "organisation_verifications",
  {
    id: text("id").primaryKey(),
    accountId: text("account_id").notNull().references(() => accounts.id),
    lei: text("lei"),
    /** {name, role, email}: the person applying for the entity. */
    applicant: jsonb("applicant").$type<{ name: string; role: string; email: string }>().notNull(),
    /** file ids (files.id) the applicant attached. */
    documents: jsonb("documents").$type<string[]>().notNull().default([]),
    status: text("status", { enum: ["pending", "approved", "rejected", "withdrawn"] }).notNull().default("pending"),
    /** What the LEI register answered when the application was made or re-checked (legal name, statuses), or null. */
    register: jsonb("register").$type<Record<string, unknown> | null>(),
    /** The legal name approved (from the register, or from documents when there is no LEI). */
    legalName: text("legal_name"),
    jurisdiction: text("jurisdiction"),
    /** The checklist items the reviewer ticked, by key, and the domains confirmed as the entity's. */
    checklist: jsonb("checklist").$type<string[]>(),
    domains: jsonb("domains").$type<string[]>(),
    decidedBy: text("decided_by").references(() => accounts.id),
    decidedAt: ts("decided_at"),
    /** The reason given to the applicant on rejection. */
    reason: text("reason"),
    notes: text("notes"),
    createdAt: createdAt(),
  },
  (t) => [index("organisation_verifications_account_idx").on(t.accountId, t.createdAt), index("organisation_verifications_status_idx").on(t.status, t.createdAt)],
);

/**
 * Documents an account uploaded for a reviewer (CONTRACT "Documents"): PDF, PNG or JPEG by
 * content, at most 10 MiB. Readable only by the owner and reviewers; never public, never
 * signed (only their SHA-256 may be). Deleted 90 days after the decision that used them
 * (`deleteAfter`, set at the decision); a file no submission used is deleted after 90 days too.
 */
export const files = pgTable(
  "files",
  {
    id: text("id").primaryKey(),
    accountId: text("account_id").notNull().references(() => accounts.id),
    filename: text("filename").notNull(),
    contentType: text("content_type", { enum: ["application/pdf", "image/png", "image/jpeg"] }).notNull(),
    sizeBytes: integer("size_bytes").notNull(),
    sha256: text("sha256").notNull(),
    data: bytea("data").notNull(),
    /** What the file was attached to (an organisation verification or a record submission), once used. */
    usedBy: text("used_by"),
    deleteAfter: ts("delete_after").notNull(),
    createdAt: createdAt(),
  },
  (t) => [index("files_account_idx").on(t.accountId, t.createdAt), index("files_delete_after_idx").on(t.deleteAfter)],
);
