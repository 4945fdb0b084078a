import { changePrincipal } from "@/lib/records/change-principal";
import { KiB, readJsonObject } from "@/lib/http/body";
import { json, otherMethods, param } from "@/lib/http/handler";
import { withApiKey } from "@/lib/accounts/with-api-key";

/** Link an agent authorization to its principal's company record, or unlink it (null). */
export const PATCH = withApiKey("changeRecordPrincipal", async (ctx) =>
  json(await changePrincipal(ctx.db, ctx.auth, param(ctx, "id"), await readJsonObject(ctx.req, 4 * KiB))),
);

export const { GET, POST, PUT, DELETE } = otherMethods("PATCH");
