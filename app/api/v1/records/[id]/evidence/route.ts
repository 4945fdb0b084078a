import { KiB, readJsonObject } from "@/lib/http/body";
import { json, param, otherMethods } from "@/lib/http/handler";
import { withApiKey } from "@/lib/accounts/with-api-key";
import { refreshEvidence } from "@/lib/records/refresh-evidence";

export const POST = withApiKey("refreshRecordEvidence", async (ctx) => json(await refreshEvidence(ctx.db, ctx.auth, param(ctx, "id"), await readJsonObject(ctx.req, 16 * KiB))));

export const { GET, PUT, PATCH, DELETE } = otherMethods("POST");
