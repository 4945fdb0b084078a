// Types of json-log.mjs (plain ESM so scripts/serve.mjs can load it without TypeScript).
import type { DestinationStream, Logger, LoggerOptions } from "pino";

export declare const REDACTED: "[redacted]";
export declare const LOG_LEVELS: readonly ["fatal", "error", "warn", "info", "debug", "trace", "silent"];
export type LogLevel = (typeof LOG_LEVELS)[number];
export declare const REQUEST_ID_HEADER: "x-request-id";
export declare const REQUEST_ID_RE: RegExp;
export declare const REDACT_PATHS: string[];
export declare function redactText(text: string): string;
export declare function redactFields(value: unknown, depth?: number): unknown;
export declare function runWithRequestId<T>(id: string, fn: () => T): T;
export declare function currentRequestId(): string | undefined;
export declare function loggerOptions(level: unknown): LoggerOptions;
export declare function createLogger(level: unknown, destination: DestinationStream): Logger;
export declare function getLogger(level: unknown): Logger;
export declare function consoleMessage(args: unknown[]): string;
export declare function routeConsole(logger: Logger): void;
