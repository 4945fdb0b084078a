import { KiB, readJsonObject } from "@/lib/http/body";
import { json, otherMethods } from "@/lib/http/handler";
import { withApiKey } from "@/lib/accounts/with-api-key";
import { applyForVerification, getVerificationState } from "@/lib/organisations/apply-for-verification";

/** Apply to be a verified organisation: a reviewer decides (202 with the pending application). Sandbox and live keys alike. */
export const POST = withApiKey("applyForOrganisationVerification", async ({ req, auth, db }) => json(await applyForVerification(db, auth.accountId, await readJsonObject(req, 16 * KiB)), 202));

/** The latest application and the account's verified organisation now. */
export const GET = withApiKey("getOrganisationVerification", async ({ auth, db }) => json(await getVerificationState(db, auth.accountId)));

export const { PUT, PATCH, DELETE } = otherMethods("GET, POST");
