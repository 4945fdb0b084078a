import { describe, expect, it } from "vitest";
import { renderMarkdown, resolveHref, slugify } from "./render-markdown";

const options = { fromFile: "README.md", pageOfFile: new Map([["docs/api.md", "/docs/guides/api"], ["README.md", "/docs/guides/getting-started"]]) };
const render = (md: string, fromFile = "README.md") => renderMarkdown(md, { ...options, fromFile });

describe("renderMarkdown", () => {
  it("shows raw HTML as text and drops comments", () => {
    const { html } = render("<!-- generated -->\n\nHello <script>alert(1)</script> <b onmouseover=x>bold</b>\n\n<div onclick=\"x\">block</div>\n");
    expect(html).not.toContain("<!--");
    expect(html).not.toMatch(/<script|<b |<div /);
    expect(html).toContain("&lt;script&gt;alert(1)&lt;/script&gt;");
    expect(html).toContain("&lt;div onclick=&quot;x&quot;&gt;");
  });

  it("keeps safe links, maps links between guides and drops the rest to text", () => {
    const { html } = render("[a](https://example.com) [b](javascript:alert(1)) [c](docs/api.md#915-mandate-keys) [d](lib/env.ts) [e](/signup) [f](//evil.example) [g](#quick-start) ![img](https://x/y.png)");
    expect(html).toContain('<a href="https://example.com" rel="noopener noreferrer">a</a>');
    expect(html).not.toContain("javascript:");
    expect(html).toContain('<a href="/docs/guides/api#915-mandate-keys">c</a>');
    expect(html).toContain(" d ");
    expect(html).toContain('<a href="/signup">e</a>');
    expect(html).not.toContain("evil.example");
    expect(html).toContain('<a href="#quick-start">g</a>');
    expect(html).not.toContain("<img");
  });

  it("resolves relative links from the rendered file's folder", () => {
    expect(resolveHref("../README.md", { ...options, fromFile: "docs/api.md" })).toBe("/docs/guides/getting-started");
    expect(resolveHref("api.md#x", { ...options, fromFile: "docs/claim-types.md" })).toBe("/docs/guides/api#x");
    expect(resolveHref("data:text/html,x", options)).toBeNull();
  });

  it("gives headings GitHub's anchors, unique, and returns the title and outline", () => {
    const { html, title, headings } = render("# Proof & Records\n\n## 9.15 Mandate keys\n\n### `company_status`\n\n## 1. Critical — forged proofs\n\n## Tests\n\n## Tests\n");
    expect(title).toBe("Proof & Records");
    expect(headings.map((h) => h.id)).toEqual(["proof--records", "915-mandate-keys", "company_status", "1-critical--forged-proofs", "tests", "tests-1"]);
    expect(html).toContain('<h2 id="915-mandate-keys"><a class="anchor" href="#915-mandate-keys">9.15 Mandate keys</a></h2>');
  });

  it("wraps tables so they scroll on a phone and escapes code", () => {
    const { html } = render("| a | b |\n|---|---|\n| 1 | 2 |\n\n```html\n<script>x</script>\n```\n");
    expect(html).toMatch(/^<div class="md-table"><table>/);
    expect(html).toContain("&lt;script&gt;x&lt;/script&gt;");
  });

  it("slugify keeps letters, digits, underscores and hyphens", () => {
    expect(slugify("Hello, World! (v1)")).toBe("hello-world-v1");
  });
});
