import { describe, expect, it } from "vitest";
import { hostCovered } from "./covered-hosts";
import { sightingHost } from "./sighting-counter";

describe("hostCovered", () => {
  const hosts = ["example.com", "www.example.com", "shop.example.org"];
  it("covers exactly the hosts of the one rule: no other subdomain, nothing that merely ends with their text", () => {
    for (const h of ["example.com", "www.example.com", "EXAMPLE.COM.", "shop.example.org"]) expect(hostCovered(h, hosts), h).toBe(true);
    for (const h of ["a.b.example.com", "shop.example.com", "eu.shop.example.org", "evilexample.com", "example.com.evil.test", "example.org", "www.example.org", "", "com"]) {
      expect(hostCovered(h, hosts), h).toBe(false);
    }
    expect(hostCovered("example.com", [])).toBe(false);
  });
});

describe("sightingHost", () => {
  const own = "https://proof.example";
  it("takes the host name of an exact http(s) origin, not the service's own", () => {
    expect(sightingHost("https://Shop.Example", own)).toBe("shop.example");
    expect(sightingHost("http://imposter.test:8080", own)).toBe("imposter.test");
    expect(sightingHost("http://127.0.0.1:5555", own)).toBe("127.0.0.1");
    expect(sightingHost("http://[::1]:3000", own)).toBe("[::1]");
    expect(sightingHost("https://xn--80ak6aa92e.com", own)).toBe("xn--80ak6aa92e.com");
    expect(sightingHost("https://proof.example", own)).toBeNull();
    expect(sightingHost("http://proof.example", own)).toBe("proof.example"); // another origin of the same name
  });
  it("notes nothing for anything else", () => {
    for (const o of [null, "", "null", "https://a.example/", "https://a.example/p", "https://u@a.example", "ws://a.example", "file:///x", "https://a.example:443", "about:blank", "https://пример.com", `https://${"a".repeat(300)}.example`]) {
      expect(sightingHost(o, own), String(o)).toBeNull();
    }
  });
});
