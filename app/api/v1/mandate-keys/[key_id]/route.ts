import { json, otherMethods, param } from "@/lib/http/handler";
import { withApiKey } from "@/lib/accounts/with-api-key";
import { revokeMandateKey } from "@/lib/mandates/manage-mandate-keys";

export const DELETE = withApiKey("revokeMandateKey", async (ctx) => json(await revokeMandateKey(ctx.db, ctx.auth, param(ctx, "key_id"))));

export const { GET, POST, PUT, PATCH } = otherMethods("DELETE");
