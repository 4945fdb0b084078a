/**
 * The one answer every outside source (DNS, EVM RPC, the LEI register, …) gives. `found`
 * and `not_found` are the source's own answer; `unreachable` means the answer is unknown
 * (no reply in time, rate limited, server error, a reply we cannot read). The pipeline
 * turns `unreachable` into pending_review with the reason, never into a "no".
 */
export type SourceResult<T> =
  | { kind: "found"; value: T }
  | { kind: "not_found"; reason?: string }
  | { kind: "unreachable"; reason: string };

export const found = <T>(value: T): SourceResult<T> => ({ kind: "found", value });
export const notFound = <T = never>(reason?: string): SourceResult<T> => (reason === undefined ? { kind: "not_found" } : { kind: "not_found", reason });
export const unreachable = <T = never>(reason: string): SourceResult<T> => ({ kind: "unreachable", reason });
