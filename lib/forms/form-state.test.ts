import { describe, expect, it } from "vitest";
import { ApiError } from "@/lib/http/errors";
import { apiFieldErrors, formText } from "./form-state";

describe("apiFieldErrors", () => {
  it("puts the message beside the field the error names", () => {
    const e = new ApiError("invalid_superseding_record", "No record PRS-1.", "superseded_by");
    expect(apiFieldErrors(e, ["reason", "superseded_by"])).toEqual({ superseded_by: "No record PRS-1." });
  });
  it("uses the form's message for a param that is not a field of the form, or none", () => {
    expect(apiFieldErrors(new ApiError("invalid_transition", "Cannot.", "operation"), ["reason"])).toEqual({ form: "Cannot." });
    expect(apiFieldErrors(new ApiError("forbidden", "No."), ["reason"])).toEqual({ form: "No." });
  });
});

describe("formText", () => {
  it("reads strings only, cut to the limit", () => {
    const f = new FormData();
    f.set("a", "hello");
    f.set("b", new Blob(["x"]));
    expect(formText(f, "a", 3)).toBe("hel");
    expect(formText(f, "b")).toBe("");
    expect(formText(f, "missing")).toBe("");
  });
});
