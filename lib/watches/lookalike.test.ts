import { describe, expect, it } from "vitest";
import { asciiFold, compareValues, isLookalike, lookalikeKeys, type LookalikeKind } from "./lookalike";

const shareKey = (a: string, b: string, kind: LookalikeKind) => {
  const kb = new Set(lookalikeKeys(b, kind));
  return lookalikeKeys(a, kind).some((k) => kb.has(k));
};

describe("asciiFold", () => {
  it("folds the ASCII look-alikes and the TR39 confusables to one form", () => {
    expect(asciiFold("rnicrosoft")).toBe(asciiFold("microsoft"));
    expect(asciiFold("microsoft")).toBe("mlcrosoft");
    expect(asciiFold("g00gle")).toBe("google");
    expect(asciiFold("examp1e")).toBe("example");
    expect(asciiFold("EXAMPLE")).toBe("example");
    expect(asciiFold("Ex\u0430mple")).toBe("example"); // Cyrillic а
    expect(asciiFold("brightkettie")).toBe(asciiFold("brightkettle"));
    expect(asciiFold("vvikipedia")).toBe(asciiFold("wikipedia"));
    expect(asciiFold("cloudflare")).toBe("doudflare");
    expect(asciiFold("ci")).toBe("d"); // i → l, then cl → d
    expect(asciiFold("5hop")).toBe("shop");
    expect(asciiFold("acme")).not.toBe(asciiFold("acne"));
    for (const s of ["rnicrosoft", "g00gle", "ex\u0430mple", "vvcl1rn"]) expect(asciiFold(asciiFold(s))).toBe(asciiFold(s));
  });
});

describe("domain look-alikes", () => {
  const caught: [string, string][] = [
    ["brightkettie.co.uk", "brightkettle.co.uk"], // i for l
    ["rnicrosoft.com", "microsoft.com"], // rn for m
    ["exarnple.com", "example.com"],
    ["examlpe.com", "example.com"], // two letters swapped
    ["exampe.com", "example.com"], // one deletion
    ["examplle.com", "example.com"], // one insertion
    ["exbmple.com", "example.com"], // one substitution
    ["examp1e.com", "example.com"], // 1 for l
    ["g00gle.com", "google.com"], // 0 for o, twice
    ["biiiing.com", "billing.com"], // i for l, twice
    ["ex\u0430mple.com", "example.com"], // IDN homograph, Cyrillic а
    ["https://login.g00gle.com/x", "www.google.com"], // subdomains and addresses give the registrable domain
    ["rnicrosft.com", "microsoft.com"], // folded, then one deletion
  ];
  it.each(caught)("%s looks like %s, both ways, and they share a key", (a, b) => {
    expect(compareValues(a, b, "domain")).toBe("lookalike");
    expect(compareValues(b, a, "domain")).toBe("lookalike");
    expect(isLookalike(a, b, "domain")).toBe(true);
    expect(shareKey(a, b, "domain")).toBe(true);
    expect(shareKey(b, a, "domain")).toBe(true);
  });

  it("the same registrable domain is exact, not a look-alike", () => {
    expect(compareValues("example.com", "example.com", "domain")).toBe("exact");
    expect(compareValues("https://WWW.Example.com/a", "example.com", "domain")).toBe("exact");
    expect(isLookalike("example.com", "example.com", "domain")).toBe(false);
  });

  it("another public suffix, added words and two edits are not look-alikes", () => {
    expect(compareValues("example.net", "example.com", "domain")).toBeNull();
    expect(shareKey("example.net", "example.com", "domain")).toBe(false);
    expect(compareValues("example.co.uk", "example.com", "domain")).toBeNull();
    expect(compareValues("example-shop.com", "example.com", "domain")).toBeNull();
    expect(compareValues("exmpel.com", "example.com", "domain")).toBeNull(); // a deletion and a swap
    expect(compareValues("google.com", "microsoft.com", "domain")).toBeNull();
    expect(shareKey("google.com", "microsoft.com", "domain")).toBe(false);
    expect(compareValues("not a domain", "example.com", "domain")).toBeNull();
    // A known gap: one typo that makes a folded pair (`cl` → `d`) is two edits once folded.
    expect(compareValues("examcle.com", "example.com", "domain")).toBeNull();
    expect(lookalikeKeys("localhost", "domain")).toEqual([]);
  });

  it("keys: the folded domain and each one-character deletion, suffix kept", () => {
    expect(lookalikeKeys("Examp1e.co.uk", "domain").sort()).toEqual(
      ["example.co.uk", "xample.co.uk", "eample.co.uk", "exmple.co.uk", "exaple.co.uk", "examle.co.uk", "exampe.co.uk", "exampl.co.uk"].sort());
    // One letter: no deletion key (it would be the bare suffix, shared by every one-letter domain).
    expect(lookalikeKeys("x.com", "domain")).toEqual(["x.com"]);
  });

  it("a 30-character label has at most 31 keys; one past 63 characters (folded) only the exact key", () => {
    const label30 = "abcdefghjkabcdefghjkabcdefghjk";
    expect(label30).toHaveLength(30);
    const keys = lookalikeKeys(`${label30}.com`, "domain");
    expect(keys.length).toBeLessThanOrEqual(31);
    expect(keys.length).toBeGreaterThan(1);
    expect(new Set(keys).size).toBe(keys.length);
    expect(lookalikeKeys("aaaa.com", "domain")).toEqual(["aaaa.com", "aaa.com"]); // deduplicated
    const long = "m".repeat(63); // 63 letters, each folded to itself
    expect(lookalikeKeys(`${long}.com`, "domain")).toHaveLength(2);
    // 62 × `rn` (124 characters) is not a DNS label: a folded label past 63 is only reachable through names.
    expect(lookalikeKeys("x".repeat(64), "name")).toEqual(["x".repeat(64)]);
  });

  it("every one edit of a folded label shares a key with it and is confirmed (symmetric delete)", () => {
    // Letters the folds leave alone and cannot pair up (no c, i, n, r, v; digits fold).
    const alphabet = [..."abdefghjklmopqstuwxyz"];
    for (const target of ["example", "ab", "google", "brlghtkettle"]) {
      const edits = new Set<string>();
      for (let i = 0; i <= target.length; i++) {
        for (const ch of alphabet) edits.add(target.slice(0, i) + ch + target.slice(i)); // insertion
        if (i < target.length) {
          edits.add(target.slice(0, i) + target.slice(i + 1)); // deletion
          for (const ch of alphabet) edits.add(target.slice(0, i) + ch + target.slice(i + 1)); // substitution
        }
        if (i + 1 < target.length) edits.add(target.slice(0, i) + (target[i + 1] ?? "") + (target[i] ?? "") + target.slice(i + 2)); // swap
      }
      edits.delete(target);
      expect(edits.size).toBeGreaterThan(target.length);
      for (const e of edits) {
        if (e.length === 0) continue;
        const a = `${e}.com`;
        const b = `${target}.com`;
        if (e.length < 2) { // a one-letter label: below DOMAIN_EDIT_MIN_LENGTH, a key hit the confirmation rejects
          expect([a, compareValues(a, b, "domain")]).toEqual([a, null]);
          continue;
        }
        expect([a, shareKey(a, b, "domain")]).toEqual([a, true]);
        expect([a, compareValues(a, b, "domain")]).toEqual([a, "lookalike"]);
      }
    }
  });

  it("a key hit is not always a look-alike: the confirmation rejects two edits", () => {
    // "exampel" and "examlpe" share the key "exampe" but are two edits apart.
    expect(shareKey("exampel.com", "examlpe.com", "domain")).toBe(true);
    expect(compareValues("exampel.com", "examlpe.com", "domain")).toBeNull();
  });
});

describe("name look-alikes", () => {
  it("a one-letter homoglyph in a name is a look-alike; the same name is exact", () => {
    expect(compareValues("Bright Kettle Ltd", "Brlght Kettle Ltd", "name")).toBe("lookalike");
    expect(shareKey("Bright Kettle Ltd", "Brlght Kettle Ltd", "name")).toBe(true);
    expect(compareValues("Bright Kettle Ltd", "Bright Kettle Ltd", "name")).toBe("exact");
    expect(compareValues("  bright   KETTLE ltd", "Bright Kettle Ltd", "name")).toBe("exact"); // nameKey
    expect(isLookalike("Bright Kettle Ltd", "Bright Kettle Ltd", "name")).toBe(false);
    expect(compareValues("Bright-Kettle Ltd.", "Bright Kettle Ltd", "name")).toBe("lookalike"); // punctuation dropped
    expect(compareValues("Bright Kettel Ltd", "Bright Kettle Ltd", "name")).toBe("lookalike"); // swap
    expect(compareValues("Bright Kettle Ltd", "Bright Kettle Plc", "name")).toBeNull();
    expect(compareValues("\u0410cme Holdings", "Acme Holdings", "name")).toBe("lookalike"); // Cyrillic А
  });

  it("a short name gets only its exact key: Acme and Acne are not look-alikes", () => {
    expect(lookalikeKeys("Acme", "name")).toEqual(["acme"]);
    expect(lookalikeKeys("Acne", "name")).toEqual(["acne"]);
    expect(shareKey("Acme", "Acne", "name")).toBe(false);
    expect(compareValues("Acme", "Acne", "name")).toBeNull();
    expect(compareValues("Acrne", "Acme", "name")).toBe("lookalike"); // still equal once folded
    expect(lookalikeKeys("Acme Ltd", "name")).toHaveLength(8); // 7 letters: the exact key and 7 deletions
    expect(lookalikeKeys("!!", "name")).toEqual([]);
  });
});
