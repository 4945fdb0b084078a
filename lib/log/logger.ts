import type { Logger } from "pino";
import { getEnv } from "@/lib/env";
import { newRequestId } from "@/lib/ids";
import { getLogger, REQUEST_ID_HEADER, REQUEST_ID_RE, routeConsole } from "./json-log.mjs";

export { currentRequestId, runWithRequestId } from "./json-log.mjs";

/**
 * The process's logger: JSON lines on stdout (lib/log/json-log.mjs). Lines logged while a
 * request is handled carry its `request_id`. Pass errors as `{ err }`: they are written
 * through describeError, never with a failed query's parameters.
 *
 *     log().error({ err: e }, "sweep failed");
 */
export function log(): Logger {
  return getLogger(levelSetting());
}

/** LOG_LEVEL; invalid settings still get a logger (info) to say that the start failed. */
function levelSetting(): string {
  try {
    return getEnv().LOG_LEVEL;
  } catch {
    return "info";
  }
}

/** console.* and Node's warnings as JSON lines too (scripts/serve.mjs does it first in the server). */
export const routeConsoleToLog = () => routeConsole(log());

/**
 * The request's id: the one scripts/serve.mjs made and handed over in x-request-id (it
 * overwrites a client's), or a new one where no serve.mjs stands in front (`next dev`).
 */
export function requestIdOf(req: Request): string {
  const given = req.headers.get(REQUEST_ID_HEADER);
  return given && REQUEST_ID_RE.test(given) ? given : newRequestId();
}
