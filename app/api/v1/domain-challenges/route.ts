import { createDomainChallenge, domainChallengeRequest } from "@/lib/challenges/challenges";
import { KiB, readJsonObject } from "@/lib/http/body";
import { json, otherMethods } from "@/lib/http/handler";
import { parseOrThrow } from "@/lib/http/validation";
import { withApiKey } from "@/lib/accounts/with-api-key";

export const POST = withApiKey("createDomainChallenge", async ({ req, auth, db }) => {
  const input = parseOrThrow(domainChallengeRequest, await readJsonObject(req, 16 * KiB));
  return json(await createDomainChallenge(db, auth, input), 201);
});

export const { GET, PUT, PATCH, DELETE } = otherMethods("POST");
