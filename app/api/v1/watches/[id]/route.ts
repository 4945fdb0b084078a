import { json, otherMethods, param } from "@/lib/http/handler";
import { withApiKey } from "@/lib/accounts/with-api-key";
import { deleteWatch } from "@/lib/watches/manage-watches";

export const DELETE = withApiKey("deleteWatch", async (ctx) => json(await deleteWatch(ctx.db, ctx.auth.accountId, param(ctx, "id"))));

export const { GET, POST, PUT, PATCH } = otherMethods("DELETE");
