import { getOwnFileOrThrow } from "@/lib/files/get-file";
import { serializeFile } from "@/lib/files/store-file";
import { json, otherMethods, param } from "@/lib/http/handler";
import { withApiKey } from "@/lib/accounts/with-api-key";

/** A file's metadata, for its own account only (another account's file is 404). The bytes are never served here. */
export const GET = withApiKey("getFile", async (ctx) => json(serializeFile(await getOwnFileOrThrow(ctx.db, ctx.auth.accountId, param(ctx, "id")))));

export const { POST, PUT, PATCH, DELETE } = otherMethods("GET");
