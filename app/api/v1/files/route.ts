import { readUpload } from "@/lib/files/read-upload";
import { serializeFile, storeFile } from "@/lib/files/store-file";
import { json, otherMethods } from "@/lib/http/handler";
import { withApiKey } from "@/lib/accounts/with-api-key";

/** A document for a reviewer (multipart/form-data, one part `file`): PDF, PNG or JPEG by content, ≤ 10 MiB. */
export const POST = withApiKey("uploadFile", async ({ req, auth, db }) => json(serializeFile(await storeFile(db, auth.accountId, await readUpload(req))), 201));

export const { GET, PUT, PATCH, DELETE } = otherMethods("POST");
