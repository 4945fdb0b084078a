import { z } from "zod";
import { EVIDENCE_LEVELS, RECORD_STATUSES } from "@/drizzle/schema";

/**
 * What the API answers, as zod schemas. They exist for the OpenAPI document (and tests);
 * the handlers build their answers in code, and each response schema sits beside the code
 * that builds its answer (`*-schema.ts`), with type checks keeping the field sets of both
 * in step (see ./response-checks). This file holds the pieces they share.
 *
 * Objects are strict (`additionalProperties: false`) unless an answer may grow
 * type-specific fields (signed status, signed payload).
 */

export const timestampSchema = z.iso
  .datetime()
  .meta({ id: "Timestamp", description: "RFC 3339 timestamp, UTC with milliseconds.", examples: ["2026-01-31T12:00:00.000Z"] });

export const nullableTimestamp = timestampSchema.nullable();

export const recordStatusSchema = z.enum(RECORD_STATUSES).meta({
  id: "RecordStatus",
  description:
    "pending_review (awaiting a reviewer, not issued), active, suspended, revoked, expired, superseded, or rejected (terminal, never issued).",
});

export const evidenceLevelSchema = z.enum(EVIDENCE_LEVELS).meta({
  id: "EvidenceLevel",
  description: "How far the claim was checked.",
});

export const environmentSchema = z.enum(["sandbox", "live"]).meta({
  id: "Environment",
  description: "Comes from the API key. Sandbox records are free, private and never verified.",
});

export const base64url = z.string().regex(/^[A-Za-z0-9_-]+$/);
export const sha256Hex = z.string().regex(/^[0-9a-f]{64}$/).describe("Hex SHA-256 of the RFC 8785 canonical JSON of the signed payload.");
