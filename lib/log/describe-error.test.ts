import { DrizzleQueryError } from "drizzle-orm/errors";
import { describe, expect, it } from "vitest";
import { describeError } from "./describe-error.mjs";

describe("describeError", () => {
  it("keeps the statement and drops the parameters of a failed query and the values PostgreSQL quotes", () => {
    const pg = Object.assign(new Error('invalid input syntax for type uuid: "whsec_SECRETVALUE"'), {
      name: "PostgresError", code: "22P02", detail: "Key (secret)=(whsec_SECRETVALUE) already exists.", routine: "string_to_uuid",
    });
    Object.defineProperty(pg, "parameters", { value: ["whsec_SECRETVALUE", "a@b.test"] });
    const err = new DrizzleQueryError('insert into "webhooks" ("secret", "email") values ($1, $2)', ["whsec_SECRETVALUE", "a@b.test"], pg);
    expect(String(err.stack)).toContain("whsec_SECRETVALUE"); // what a plain console.error(err) would write
    const out = describeError(err);
    expect(out).toContain('insert into "webhooks" ("secret", "email") values ($1, $2)');
    expect(out).toContain("22P02");
    expect(out).toContain("routine=string_to_uuid");
    expect(out).not.toContain("SECRETVALUE");
    expect(out).not.toContain("a@b.test");
  });

  it("describes ordinary errors with their message and frames", () => {
    const out = describeError(new TypeError("x is not a function"));
    expect(out).toMatch(/^TypeError: x is not a function\n\s+at /);
    expect(describeError("boom")).toBe("string thrown");
  });
});
