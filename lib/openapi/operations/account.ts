import { AUTH_CODES, bearer, errorResponses, jsonResponse, OTHER_METHODS, ref, type Paths } from "../shared";

/** The account behind the API key. */
export function accountPaths(): Paths {
  return {
    "/api/v1/usage": {
      get: {
        operationId: "getUsage",
        tags: ["Account"],
        summary: "This month's usage",
        description: "Live records issued and reviewed verifications this calendar month (UTC) against the plan's allowance.",
        security: bearer,
        responses: {
          "200": jsonResponse("Usage.", ref("Usage")),
          ...errorResponses([...AUTH_CODES, ...OTHER_METHODS]),
        },
      },
    },
  };
}
