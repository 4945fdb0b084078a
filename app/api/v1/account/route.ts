import { getAccount } from "@/lib/accounts/account-profile";
import { updateAccount } from "@/lib/accounts/update-account";
import { KiB, readJsonObject } from "@/lib/http/body";
import { json, otherMethods } from "@/lib/http/handler";
import { withApiKey } from "@/lib/accounts/with-api-key";

export const GET = withApiKey("getAccount", async ({ auth, db }) => json(await getAccount(db, auth)));

/** The organisation name certificates show as the account that made each statement. */
export const PATCH = withApiKey("updateAccount", async ({ req, auth, db }) => json(await updateAccount(db, auth, await readJsonObject(req, 4 * KiB))));

export const { POST, PUT, DELETE } = otherMethods("GET, PATCH");
