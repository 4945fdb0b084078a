import type { z } from "zod";

/**
 * Compile-time checks for the response schemas. Each `*-schema.ts` file sits beside the
 * code that builds its answer (serializeRecord, statusFields, ...) and uses these to keep
 * the schema naming exactly the fields that code produces.
 */

export type SameKeys<A, B> = [keyof A] extends [keyof B] ? ([keyof B] extends [keyof A] ? true : false) : false;
export type Assert<T extends true> = T;
export type Out<S extends z.ZodType> = NonNullable<z.output<S>>;
/** Every value fits the schema's type too (not only the key set). */
export type Fits<A, B> = [A] extends [B] ? true : false;
