import { api } from "@/lib/http/handler";
import { embedAnswer } from "@/lib/public/embed/serve-embed";

/**
 * The embed badge's script (lib/public/embed/badge.ts), under the one address sites put in their
 * pages: cached for five minutes, then revalidated, so a new release reaches every page within
 * the hour. Public, free, never metered, no cookies; other origins may load it.
 */
export const GET = api(async (ctx) => embedAnswer(ctx.req, null));
