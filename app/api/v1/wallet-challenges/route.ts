import { createWalletChallenge, walletChallengeRequest } from "@/lib/challenges/challenges";
import { KiB, readJsonObject } from "@/lib/http/body";
import { json, otherMethods } from "@/lib/http/handler";
import { parseOrThrow } from "@/lib/http/validation";
import { withApiKey } from "@/lib/accounts/with-api-key";

export const POST = withApiKey("createWalletChallenge", async ({ req, auth, db }) => {
  const input = parseOrThrow(walletChallengeRequest, await readJsonObject(req, 16 * KiB));
  return json(await createWalletChallenge(db, auth, input), 201);
});

export const { GET, PUT, PATCH, DELETE } = otherMethods("POST");
