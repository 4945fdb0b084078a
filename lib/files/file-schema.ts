import { z } from "zod";
import type { Assert, Out, SameKeys } from "@/lib/http/response-checks";
import { timestampSchema } from "@/lib/http/response-primitives";
import type { serializeFile } from "./store-file";

/** POST /api/v1/files and GET /api/v1/files/{id}: the contract of serializeFile (./store-file). Never the bytes. */
export const fileSchema = z
  .strictObject({
    object: z.literal("file"),
    id: z.string().describe("`file_…`: what a submission names in `documents`."),
    filename: z.string().describe("The name the file was uploaded under (path and hidden characters removed)."),
    content_type: z.enum(["application/pdf", "image/png", "image/jpeg"]).describe("What the bytes are, decided by their content (never by name)."),
    size_bytes: z.number().int().min(1).max(10 * 1024 * 1024),
    sha256: z.string().regex(/^[0-9a-f]{64}$/).describe("SHA-256 of the bytes, hex."),
    created_at: timestampSchema,
  })
  .meta({ id: "File", description: "A document uploaded for a reviewer. Readable only by its account and by Proof Records reviewers; deleted 90 days after the decision that used it (or after upload when none did)." });

export type _FileSchemaChecks = [Assert<SameKeys<ReturnType<typeof serializeFile>, Out<typeof fileSchema>>>];
