import { describe, expect, it } from "vitest";
import { domainFromPasted } from "./domain-name";

describe("a web address pasted as the domain to prove gives its host", () => {
  it.each([
    ["https://www.example.com/path", "www.example.com"],
    ["http://Example.com:8080/a?b#c", "example.com"],
    ["www.example.com/listing/1", "www.example.com"],
    ["https://user@shop.example.co.uk/", "shop.example.co.uk"],
  ])("%s → %s", (typed, host) => {
    expect(domainFromPasted(typed)).toEqual({ domain: host, pastedUrl: typed });
  });

  it("a bare domain, or something that is no web address, is left as typed", () => {
    expect(domainFromPasted(" example.com ")).toEqual({ domain: "example.com" });
    expect(domainFromPasted("ftp://example.com/x")).toEqual({ domain: "ftp://example.com/x" });
    expect(domainFromPasted("exa mple.com")).toEqual({ domain: "exa mple.com" });
  });
});
