import { createElement } from "react";
import { renderToStaticMarkup } from "react-dom/server";
import { describe, expect, it } from "vitest";
import { WithSpeaker } from "@/components/speaker-name";
import { WHO } from "@/lib/record-model/evidence-level-text";

/** The speaking account in a sentence (issue 38, item 8): a self-declared name as data, the sentence otherwise as text. */
const html = (text: string, account: { name: string | null; name_verified?: boolean }) => renderToStaticMarkup(createElement(WithSpeaker, { text, account }));
const text = (markup: string) => markup.replace(/<[^>]+>/g, "");

describe("WithSpeaker", () => {
  it("puts a self-declared name in an element of its own, between the service's quotation marks", () => {
    const m = html(`Stated by ${WHO} — not checked`, { name: "Globex Corporation", name_verified: false });
    expect(m).toMatch(/^Stated by an account calling itself “<bdi [^>]*data-testid="self-name"[^>]*>Globex Corporation<\/bdi>” \(name not verified\) — not checked$/);
    // Capitalised at the start of a sentence.
    expect(text(html(`${WHO} made this statement.`, { name: "Globex", name_verified: false }))).toBe("An account calling itself “Globex” (name not verified) made this statement.");
  });

  it("leaves a sentence without the account as it is, and names a verified organisation or an unnamed account in plain text", () => {
    expect(html("Checked against a source", { name: "Globex", name_verified: false })).toBe("Checked against a source");
    expect(html(`Statement by ${WHO}.`, { name: "Globex Corporation", name_verified: true })).toBe("Statement by Globex Corporation.");
    expect(html(`Stated by ${WHO}`, { name: null })).toBe("Stated by an unnamed account");
  });

  it("escapes a name as data: markup in it is text", () => {
    const m = html(`Stated by ${WHO}`, { name: "<b>Acme</b> & Co", name_verified: false });
    expect(m).toContain("&lt;b&gt;Acme&lt;/b&gt; &amp; Co");
    expect(m).not.toContain("<b>");
  });
});
