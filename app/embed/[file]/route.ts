import { api, param } from "@/lib/http/handler";
import { embedAnswer } from "@/lib/public/embed/serve-embed";

/**
 * The embed badge's script under its versioned address (`/embed/<version>.js`): the same
 * bytes as /embed.js, cached for a year as immutable, for pages that pin it with Subresource
 * Integrity. Another version than this build's redirects to /embed.js (which a pinned
 * integrity value then refuses: the badge stays empty rather than run other code).
 */
export const GET = api(async (ctx) => embedAnswer(ctx.req, param(ctx, "file")));
