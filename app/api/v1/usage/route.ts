import { getUsage } from "@/lib/accounts/get-usage";
import { json, otherMethods } from "@/lib/http/handler";
import { withApiKey } from "@/lib/accounts/with-api-key";

export const GET = withApiKey("getUsage", async ({ auth, db }) => json(await getUsage(db, auth)));

export const { POST, PUT, PATCH, DELETE } = otherMethods("GET");
