import { and, eq, inArray, isNull } from "drizzle-orm";
import { createHash } from "node:crypto";
import { files } from "@/drizzle/schema";
import type { DbOrTx } from "@/lib/db/client";
import { ApiError } from "@/lib/http/errors";
import { newFileId } from "@/lib/ids";
import { sniffFileType } from "./sniff-file-type";

export const MAX_FILE_BYTES = 10 * 1024 * 1024;
/** A file nobody used is kept this long; a file a decision used, this long after the decision. */
export const FILE_RETENTION_MS = 90 * 24 * 3600 * 1000;

export type FileRow = typeof files.$inferSelect;

/** What is kept of the name a file was uploaded under: no path, no control or hidden characters, at most 200 characters. */
export function cleanFilename(name: string): string {
  const base = name.split(/[\\/]/).pop() ?? "";
  const clean = base
    .normalize("NFC")
    .replace(/[\u0000-\u001F\u007F\u061C\u200B-\u200F\u202A-\u202E\u2060-\u2064\u2066-\u206F\uFEFF]/g, "_")
    .trim()
    .slice(0, 200);
  return clean || "document";
}

export const tooLarge = () => new ApiError("file_too_large", "The file exceeds 10 MiB; send a smaller scan or photo.", "file");

/**
 * Store one uploaded document of `accountId`: PDF, PNG or JPEG by its first bytes (a name
 * or a declared type counts for nothing), at most 10 MiB. Kept 90 days unless a decision
 * uses it (then 90 days after the decision).
 */
export async function storeFile(db: DbOrTx, accountId: string, upload: { filename: string; bytes: Uint8Array }, now = new Date()): Promise<FileRow> {
  const { bytes } = upload;
  if (bytes.byteLength === 0) throw new ApiError("unsupported_file_type", "The file is empty.", "file");
  if (bytes.byteLength > MAX_FILE_BYTES) throw tooLarge();
  const contentType = sniffFileType(bytes);
  if (!contentType) {
    throw new ApiError("unsupported_file_type", "Only PDF, PNG and JPEG files are accepted, recognised by their content (this file's content is none of them, whatever its name).", "file");
  }
  const [row] = await db.insert(files).values({
    id: newFileId(), accountId, filename: cleanFilename(upload.filename), contentType, sizeBytes: bytes.byteLength,
    sha256: createHash("sha256").update(bytes).digest("hex"), data: bytes,
    deleteAfter: new Date(now.getTime() + FILE_RETENTION_MS), createdAt: now,
  }).returning();
  return row!;
}

/** The file object the API answers: its metadata, never its bytes. */
export function serializeFile(f: Pick<FileRow, "id" | "filename" | "contentType" | "sizeBytes" | "sha256" | "createdAt">) {
  return {
    object: "file" as const, id: f.id, filename: f.filename, content_type: f.contentType, size_bytes: f.sizeBytes,
    sha256: f.sha256, created_at: f.createdAt.toISOString(),
  };
}

/** Remove files of `accountId` that were stored for a submission that was then refused (never used). */
export async function discardUnusedFiles(db: DbOrTx, accountId: string, ids: readonly string[]) {
  if (ids.length === 0) return;
  await db.delete(files).where(and(eq(files.accountId, accountId), inArray(files.id, [...ids]), isNull(files.usedBy)));
}
