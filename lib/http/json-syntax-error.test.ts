import { describe, expect, it } from "vitest";
import { findJsonSyntaxError, invalidJsonMessage } from "./json-syntax-error";

const parses = (t: string) => {
  try {
    JSON.parse(t);
    return true;
  } catch {
    return false;
  }
};

describe("findJsonSyntaxError", () => {
  it.each([
    ['{"subject": "A",', 1, 17, "a property name in double quotes", "the end of the body"],
    ['{"a":1}x', 1, 8, "the end of the body", "'x'"],
    ['{\n  "a": tru\n}', 2, 11, "'true'", "U+000A"],
    ['{"a" 1}', 1, 6, "':' after the property name", "'1'"],
    ['{"a":1,}', 1, 8, "a property name in double quotes", "'}'"],
    ['\n\n{"a": [1, 2,, 3]}', 3, 13, "a value", "','"],
    ['{"a": "x\u0001"}', 1, 9, "no control characters in a string (escape them, e.g. \\n)", "U+0001"],
    ['{"a": "\\x"}', 1, 9, "a valid escape (\\\" \\\\ \\/ \\b \\f \\n \\r \\t \\uXXXX)", "'x'"],
    ['{"a": "\\u12G4"}', 1, 10, "four hex digits after \\u", "'1'"],
    ['{"é": "ü" x}', 1, 11, "',' or '}'", "'x'"],
    ["{'a': 1}", 1, 2, "a property name in double quotes or '}'", "'''"],
    ["[1, 2", 1, 6, "',' or ']'", "the end of the body"],
    ["[", 1, 2, "a value or ']'", "the end of the body"],
    ["\r\n\r\n  -", 3, 3, "a value", "'-'"],
    ["\uFEFF{}", 1, 1, "a value", "U+FEFF"],
  ])("%j → line %i column %i", (text, line, column, expected, found) => {
    expect(parses(text)).toBe(false);
    expect(findJsonSyntaxError(text)).toEqual({ line, column, expected, found });
  });

  it("finds nothing in valid JSON, however deep", () => {
    for (const t of ['{"a": [1, -2.5e+3, true, false, null, {"b": "\\u00e9\\n\\"", "c": []}], "d": {}}', "42", '"s"', " [ ] ", "[".repeat(50_000) + "]".repeat(50_000)]) {
      expect(findJsonSyntaxError(t)).toBeNull();
    }
  });

  it("does not overflow on deep unterminated nesting", () => {
    expect(findJsonSyntaxError("[".repeat(1_000_000))).toMatchObject({ line: 1, column: 1_000_001 });
  });

  it("agrees with JSON.parse on mutated documents", () => {
    const doc = JSON.stringify({ subject: "Acme \"Ltd\"", list: [1, 2.5, -3e2, true, null], nested: { a: "\\ü\n", b: [] } }, null, 1);
    const alphabet = ['"', "{", "}", "[", "]", ",", ":", " ", "1", "-", ".", "e", "\\", "u", "t", "\n", "a"];
    let seed = 7;
    const rand = (n: number) => ((seed = (seed * 1103515245 + 12345) % 2 ** 31), seed % n);
    for (let n = 0; n < 3000; n++) {
      const chars = [...doc];
      for (let m = 0; m <= rand(3); m++) {
        const at = rand(chars.length);
        const op = rand(3);
        if (op === 0) chars.splice(at, 1);
        else if (op === 1) chars.splice(at, 0, alphabet[rand(alphabet.length)]!);
        else chars[at] = alphabet[rand(alphabet.length)]!;
      }
      const t = chars.join("");
      expect(findJsonSyntaxError(t) === null, t).toBe(parses(t));
    }
  });
});

describe("invalidJsonMessage", () => {
  it("names the position and never quotes the body", () => {
    const secret = "prs_live_" + "S".repeat(32);
    const msg = invalidJsonMessage(`{"note": "${secret}", oops}`);
    expect(msg).toBe("The request body is not valid JSON: at line 1, column 55, expected a property name in double quotes but found 'o'.");
    expect(msg).not.toContain("SSSS");
  });
  it("says an empty body is empty", () => {
    expect(invalidJsonMessage("  \n")).toBe("The request body is empty; send a JSON object.");
  });
});
