import { describe, expect, it } from "vitest";
import { checklistFor, checklistIncompleteMessage } from "./checklists";

describe("checklistIncompleteMessage", () => {
  it("names the unticked items by their labels, never their keys", () => {
    const generic = checklistFor("some_reviewed_type", {});
    const msg = checklistIncompleteMessage(generic.slice(1, 3));
    expect(msg).toBe(
      "Approval needs every checklist item; not ticked: “The source names the subject exactly as submitted”; “The source supports the claim as worded, no more”.",
    );
    for (const item of generic) expect(msg).not.toContain(item.key);
  });
});
