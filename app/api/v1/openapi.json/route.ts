import { getEnv } from "@/lib/env";
import { api, corsPreflight, json, otherMethods } from "@/lib/http/handler";
import { buildOpenApi, type OpenApiDocument } from "@/lib/openapi/build-openapi";

export const dynamic = "force-dynamic";

/** Built on first request (the base URL is a run-time setting), then kept for the process. */
let document: OpenApiDocument | undefined;

export const GET = api(
  async () => {
    document ??= buildOpenApi(getEnv().publicBaseUrl);
    return json(document, 200, { "Cache-Control": "public, max-age=300" });
  },
  { cors: true },
);

export const OPTIONS = corsPreflight;

export const { POST, PUT, PATCH, DELETE } = otherMethods("GET");
