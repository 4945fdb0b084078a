import { describe, expect, it } from "vitest";
import { Lru, sharedLru } from "./lru";

describe("Lru", () => {
  it("keeps at most `max` entries, dropping the least recently used", () => {
    const l = new Lru<string, number>(2);
    l.set("a", 1);
    l.set("b", 2);
    expect(l.get("a")).toBe(1); // a is now the most recent
    l.set("c", 3);
    expect(l.get("b")).toBeUndefined();
    expect(l.get("a")).toBe(1);
    expect(l.get("c")).toBe(3);
    expect(l.size).toBe(2);
  });

  it("one instance per name per process", () => {
    expect(sharedLru("t", 3)).toBe(sharedLru("t", 3));
  });
});
