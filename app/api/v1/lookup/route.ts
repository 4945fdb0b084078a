import { corsPreflight, jsonText, otherMethods } from "@/lib/http/handler";
import { withRateLimit } from "@/lib/http/with-rate-limit";
import { publicApi } from "@/lib/accounts/with-api-key";
import { answerLookup } from "@/lib/public/lookup/answer-lookup";
import { lookupLimiter } from "@/lib/public/lookup/limiter";
import { lookupRequestFrom } from "@/lib/public/lookup/lookup-query";

/**
 * Public, keyless and free (never metered): is this IBAN, wallet, website, listing link,
 * licence number or handle on record? A signed answer, `no_match` included. Rate limited per
 * client address; not cached, as a record's status may change at any moment.
 */
export const GET = publicApi(withRateLimit("lookup", lookupLimiter, async (ctx) => {
  const req = lookupRequestFrom(new URL(ctx.req.url));
  return jsonText(await answerLookup(ctx.db, req), 200, { "Cache-Control": "no-store" });
}));

export const OPTIONS = corsPreflight;

export const { POST, PUT, PATCH, DELETE } = otherMethods("GET");
