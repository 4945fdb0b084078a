import { z } from "zod";
import { environmentSchema } from "@/lib/http/response-primitives";
import { recordIdSchema } from "@/lib/record-model/schemas";

/** GET /api/v1/records/{id}/log (CONTRACT "Transparency log"). */
export const recordLogEntrySchema = z.object({
  index: z.number().int().nonnegative(),
  leaf: z.string().describe("RFC 8785 canonical JSON of {verification_id, event, status, at, payload_sha256, environment}."),
  leaf_hash: z.string().regex(/^[0-9a-f]{64}$/).describe("SHA-256(0x00 ‖ leaf), hex."),
  tree_size: z.number().int().positive().describe("The checkpoint's tree size, which the proof is against."),
  inclusion_proof: z.array(z.string().regex(/^[0-9a-f]{64}$/)).describe("RFC 9162 audit path, hex, leaf side first."),
}).meta({ id: "RecordLogEntry" });

export const recordLogSchema = z.object({
  verification_id: recordIdSchema,
  environment: environmentSchema,
  logged: z.boolean().describe("False for sandbox records: they are not in the log, and `entries` is empty."),
  checkpoint: z.string().describe("The latest checkpoint: a C2SP signed note (origin, tree size, base64 root hash), key at /log/key."),
  entries: z.array(recordLogEntrySchema).describe("The record's entries covered by the checkpoint, oldest first: the latest `limit` (default 50) before the cursor `before` (absent: the latest)."),
  entries_before: z.number().int().positive().nullable().describe("Cursor for the record's entries before these (`?before=`); null when these are the first."),
  pending_entries: z.number().int().nonnegative().describe("Entries made after the checkpoint; proven once the next one is signed (seconds)."),
}).meta({ id: "RecordLog", description: "A record's transparency-log entries, a page at a time, each with its inclusion proof against the checkpoint beside it." });
