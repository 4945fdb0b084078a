import { and, eq, inArray } from "drizzle-orm";
import { files } from "@/drizzle/schema";
import type { DbOrTx } from "@/lib/db/client";
import { ApiError } from "@/lib/http/errors";
import { FILE_ID_RE } from "@/lib/ids";

const META = {
  id: files.id, accountId: files.accountId, filename: files.filename, contentType: files.contentType,
  sizeBytes: files.sizeBytes, sha256: files.sha256, usedBy: files.usedBy, deleteAfter: files.deleteAfter, createdAt: files.createdAt,
};

/** One file of `accountId` (metadata only); another account's file or an unknown id is 404 `file_not_found`. */
export async function getOwnFileOrThrow(db: DbOrTx, accountId: string, id: string) {
  const row = FILE_ID_RE.test(id)
    ? (await db.select(META).from(files).where(and(eq(files.id, id), eq(files.accountId, accountId))))[0]
    : undefined;
  if (!row) throw new ApiError("file_not_found", `No file ${id.slice(0, 40)} in this account.`, "id");
  return row;
}

/** Several files of `accountId` by id (metadata only), in the order asked; ids that are not the account's are left out. */
export async function filesOfAccount(db: DbOrTx, accountId: string, ids: readonly string[]) {
  if (ids.length === 0) return [];
  const rows = await db.select(META).from(files).where(and(eq(files.accountId, accountId), inArray(files.id, [...ids])));
  const byId = new Map(rows.map((r) => [r.id, r]));
  return ids.flatMap((id) => byId.get(id) ?? []);
}

/**
 * The bytes of one file, for the two who may read them: its account (`accountId` given) or
 * a reviewer (`accountId` null; the caller checked the role). Null when there is none.
 */
export async function readFileBytes(db: DbOrTx, id: string, accountId: string | null) {
  if (!FILE_ID_RE.test(id)) return null;
  const where = accountId === null ? eq(files.id, id) : and(eq(files.id, id), eq(files.accountId, accountId));
  const [row] = await db.select({ ...META, data: files.data }).from(files).where(where);
  return row ?? null;
}
