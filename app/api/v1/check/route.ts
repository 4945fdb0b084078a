import { checkParts } from "@/lib/public/check/answer-check";
import { checkQueryFrom } from "@/lib/public/check/check-query";
import { corsPreflight, jsonText, otherMethods } from "@/lib/http/handler";
import { withRateLimit } from "@/lib/http/with-rate-limit";
import { publicApi } from "@/lib/accounts/with-api-key";
import { lookupLimiter } from "@/lib/public/lookup/limiter";
import { signedAnswer } from "@/lib/signing/canonical";

/**
 * Public, keyless, free: are this operator, website and payee on record together? A signed
 * verdict per part (CONTRACT "Public check"), under the same rate limit as lookup.
 */
export const GET = publicApi(withRateLimit("lookup", lookupLimiter, async (ctx) => {
  const q = checkQueryFrom(new URL(ctx.req.url));
  return jsonText(signedAnswer(await checkParts(ctx.db, q), "signature"), 200, { "Cache-Control": "no-store" });
}));

export const OPTIONS = corsPreflight;

export const { POST, PUT, PATCH, DELETE } = otherMethods("GET");
