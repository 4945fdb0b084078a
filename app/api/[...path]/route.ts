import { api } from "@/lib/http/handler";
import { ApiError } from "@/lib/http/errors";

/** Unknown API paths answer in the error envelope, not with the HTML not-found page. */
const notFound = api(async (ctx) => {
  throw new ApiError("not_found", `No endpoint ${ctx.req.method} ${new URL(ctx.req.url).pathname}. See /api/v1/openapi.json.`);
});

export const GET = notFound;
export const POST = notFound;
export const PUT = notFound;
export const PATCH = notFound;
export const DELETE = notFound;
