/** An error as it may be written to the log: what failed and where, never the values (describe-error.mjs). */
export declare function describeError(err: unknown): string;
