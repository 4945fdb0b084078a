/**
 * Where a text that JSON.parse refused stops being JSON, for a 400 `invalid_json` a client
 * can act on: "expected ',' or '}' at line 3, column 14". Engines word (and place) their
 * own errors differently, and some quote the input back, so the position is found here by
 * one iterative pass (an explicit stack: deep nesting cannot overflow it). Nothing of the
 * body is echoed except, at most, the one character found.
 */
export type JsonSyntaxProblem = { line: number; column: number; expected: string; found: string };

type Frame = "array" | "object";
const WS = new Set([" ", "\t", "\n", "\r"]);
const NUMBER = /-?(?:0|[1-9][0-9]*)(?:\.[0-9]+)?(?:[eE][+-]?[0-9]+)?/y;
const ESCAPES = new Set(['"', "\\", "/", "b", "f", "n", "r", "t"]);

/** The first syntax error in `text`, or null when it is valid JSON. */
export function findJsonSyntaxError(text: string): JsonSyntaxProblem | null {
  const stack: Frame[] = [];
  let i = 0;
  const skipWs = () => {
    while (i < text.length && WS.has(text[i]!)) i++;
  };
  const fail = (expected: string, at = i) => problem(text, at, expected);

  /** After a value: the enclosing container's separator or end, or the end of the text. */
  const afterValue = (): JsonSyntaxProblem | "done" | "value" | "key" => {
    for (;;) {
      skipWs();
      const top = stack.at(-1);
      if (!top) return i < text.length ? fail("the end of the body") : "done";
      const close = top === "array" ? "]" : "}";
      if (text[i] === ",") {
        i++;
        return top === "array" ? "value" : "key";
      }
      if (text[i] !== close) return fail(`',' or '${close}'`);
      i++;
      stack.pop();
    }
  };

  let want: "value" | "key" | "first-key" | "first-value" = "value";
  for (;;) {
    skipWs();
    if (want === "key" || want === "first-key") {
      if (want === "first-key" && text[i] === "}") {
        i++;
        stack.pop();
      } else {
        if (text[i] !== '"') return fail(want === "first-key" ? "a property name in double quotes or '}'" : "a property name in double quotes");
        const bad = scanString();
        if (bad) return bad;
        skipWs();
        if (text[i] !== ":") return fail("':' after the property name");
        i++;
        want = "value";
        continue;
      }
    } else {
      const c = text[i];
      if (want === "first-value" && c === "]") {
        i++;
        stack.pop();
      } else if (c === "{") {
        i++;
        stack.push("object");
        want = "first-key";
        continue;
      } else if (c === "[") {
        i++;
        stack.push("array");
        want = "first-value";
        continue;
      } else if (c === '"') {
        const bad = scanString();
        if (bad) return bad;
      } else if (c === "t" || c === "f" || c === "n") {
        const word = c === "t" ? "true" : c === "f" ? "false" : "null";
        for (let k = 0; k < word.length; k++, i++) if (text[i] !== word[k]) return fail(`'${word}'`);
      } else {
        NUMBER.lastIndex = i;
        if (!NUMBER.exec(text)) return fail(want === "first-value" ? "a value or ']'" : "a value");
        i = NUMBER.lastIndex;
      }
    }
    const next = afterValue();
    if (next === "done") return null;
    if (typeof next === "object") return next;
    want = next;
  }

  /** A string starting at text[i] === '"'; leaves i after its closing quote. */
  function scanString(): JsonSyntaxProblem | null {
    i++;
    for (;;) {
      if (i >= text.length) return fail("'\"' to close the string");
      const c = text[i]!;
      if (c === '"') {
        i++;
        return null;
      }
      if (c < " ") return fail("no control characters in a string (escape them, e.g. \\n)");
      if (c === "\\") {
        const e = text[i + 1];
        if (e === "u") {
          if (!/^[0-9a-fA-F]{4}$/.test(text.slice(i + 2, i + 6))) return fail("four hex digits after \\u", i + 2);
          i += 6;
        } else if (e !== undefined && ESCAPES.has(e)) {
          i += 2;
        } else {
          return fail("a valid escape (\\\" \\\\ \\/ \\b \\f \\n \\r \\t \\uXXXX)", i + 1);
        }
      } else {
        i++;
      }
    }
  }
}

/** 1-based line and column (in characters) of `offset`, and what stands there. */
function problem(text: string, offset: number, expected: string): JsonSyntaxProblem {
  let line = 1;
  let lineStart = 0;
  for (let k = 0; k < offset; k++) {
    const c = text[k];
    if (c === "\n" || (c === "\r" && text[k + 1] !== "\n")) {
      line++;
      lineStart = k + 1;
    }
  }
  const column = Array.from(text.slice(lineStart, offset)).length + 1;
  return { line, column, expected, found: describeChar(text.codePointAt(offset)) };
}

function describeChar(cp: number | undefined): string {
  if (cp === undefined) return "the end of the body";
  if (cp >= 0x21 && cp <= 0x7e) return `'${String.fromCodePoint(cp)}'`;
  return `U+${cp.toString(16).toUpperCase().padStart(4, "0")}`;
}

/** The `invalid_json` message for a text JSON.parse refused. */
export function invalidJsonMessage(text: string): string {
  if (text.trim() === "") return "The request body is empty; send a JSON object.";
  const p = findJsonSyntaxError(text);
  // JSON.parse refused it, so a scan that finds nothing means the two disagree: say no more than that.
  if (!p) return "The request body is not valid JSON.";
  return `The request body is not valid JSON: at line ${p.line}, column ${p.column}, expected ${p.expected} but found ${p.found}.`;
}
