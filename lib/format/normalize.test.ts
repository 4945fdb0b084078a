import { describe, expect, it } from "vitest";
import { detect, normalizeAs, type LookupKind } from "./normalize";

const EVM = "0x8ba1f109551bD432803012645Ac136ddd64DBA72";
const SOLANA = "vines1vzrYbzLMRdu58ou5XTby4qAqVRLmqo36NKPTg";

/** What a lookup without `type` reads: [query, kind, normalised value]. */
const DETECTED: [string, LookupKind, string][] = [
  // IBAN: spaces, lower case, hyphens → one compact upper-case form
  ["DE89 3704 0044 0532 0130 00", "iban", "DE89370400440532013000"],
  ["de89370400440532013000", "iban", "DE89370400440532013000"],
  ["  GB82-WEST-1234-5698-7654-32 ", "iban", "GB82WEST12345698765432"],
  ["FR14 2004 1010 0505 0001 3M02 606", "iban", "FR1420041010050500013M02606"],
  // EVM: checksummed, lower and upper case → lower case
  [EVM, "wallet", EVM.toLowerCase()],
  [EVM.toLowerCase(), "wallet", EVM.toLowerCase()],
  ["0x" + EVM.slice(2).toUpperCase(), "wallet", EVM.toLowerCase()],
  // bitcoin bech32 in either case → lower case; base58 exactly as written
  ["bc1qw508d6qejxtdg4y5r3zarvary0c5xw7kv8f3t4", "wallet", "bc1qw508d6qejxtdg4y5r3zarvary0c5xw7kv8f3t4"],
  ["BC1QW508D6QEJXTDG4Y5R3ZARVARY0C5XW7KV8F3T4", "wallet", "bc1qw508d6qejxtdg4y5r3zarvary0c5xw7kv8f3t4"],
  ["1BvBMSEYstWetqTFn5Au4m4GFg7xJaNVN2", "wallet", "1BvBMSEYstWetqTFn5Au4m4GFg7xJaNVN2"],
  ["3J98t1WpEZ73CNmQviecrnyiWrnqRhWNLy", "wallet", "3J98t1WpEZ73CNmQviecrnyiWrnqRhWNLy"],
  [SOLANA, "wallet", SOLANA],
  // websites: scheme, www, path-less, port, upper case, trailing dot, IDN → the bare host
  ["example.com", "website", "example.com"],
  ["Example.COM", "website", "example.com"],
  ["www.example.com", "website", "example.com"],
  ["https://www.Example.com/", "website", "example.com"],
  ["http://example.com:8080", "website", "example.com"],
  ["HTTPS://EXAMPLE.COM./", "website", "example.com"],
  ["shop.example.co.uk", "website", "shop.example.co.uk"],
  ["Bücher.de", "website", "xn--bcher-kva.de"],
  ["https://www.bücher.de/#top", "website", "xn--bcher-kva.de"],
  ["www.co.uk", "website", "www.co.uk"],
  // listing links: a path or a query; lower-case host, no www, no fragment, no trailing slash
  ["https://www.Airbnb.com/rooms/12345/", "listing_url", "https://airbnb.com/rooms/12345"],
  ["airbnb.com/rooms/12345#photos", "listing_url", "https://airbnb.com/rooms/12345"],
  ["http://AIRBNB.com/rooms/12345//", "listing_url", "https://airbnb.com/rooms/12345"],
  ["https://booking.com/hotel/gb/Acme-House.html?lang=en#map", "listing_url", "https://booking.com/hotel/gb/Acme-House.html?lang=en"],
  ["https://example.com/?id=7", "listing_url", "https://example.com?id=7"],
  ["https://example.com:8443/a", "listing_url", "https://example.com:8443/a"],
  ["https://example.com:443/a", "listing_url", "https://example.com/a"],
  ["https://instagram.com/p/Cx1Yz/", "listing_url", "https://instagram.com/p/Cx1Yz"],
  ["https://x.com/acme/status/1", "listing_url", "https://x.com/acme/status/1"],
  ["https://github.com/settings", "listing_url", "https://github.com/settings"],
  // handles: @, case, profile URLs of the usual sites
  ["@Acme_Travel", "social_handle", "acme_travel"],
  ["https://x.com/Acme_Travel", "social_handle", "acme_travel"],
  ["https://twitter.com/acme_travel/?s=20", "social_handle", "acme_travel"],
  ["mobile.twitter.com/acme_travel", "social_handle", "acme_travel"],
  ["https://www.instagram.com/acme.travel/", "social_handle", "acme.travel"],
  ["t.me/AcmeTravel", "social_handle", "acmetravel"],
  ["https://github.com/Acme-Travel", "social_handle", "acme-travel"],
  ["https://www.tiktok.com/@acme.travel", "social_handle", "acme.travel"],
  ["https://youtube.com/@AcmeTravel", "social_handle", "acmetravel"],
  ["https://www.linkedin.com/in/jane-doe-123/", "social_handle", "jane-doe-123"],
  ["https://facebook.com/acme.travel", "social_handle", "acme.travel"],
  ["x.com", "website", "x.com"],
];

/** Bare tokens: tried as a licence number and as a handle, in that order. */
const TOKENS: [string, LookupValue[]][] = [
  ["ab 123 456", [{ kind: "licence_number", value: "AB123456" }]],
  ["HUT/2023/0045", [{ kind: "licence_number", value: "HUT/2023/0045" }]],
  ["acme_travel", [{ kind: "licence_number", value: "ACME_TRAVEL" }, { kind: "social_handle", value: "acme_travel" }]],
  ["REG-12.34", [{ kind: "licence_number", value: "REG-12.34" }, { kind: "social_handle", value: "reg-12.34" }]],
  ["john.doe", [{ kind: "licence_number", value: "JOHN.DOE" }, { kind: "social_handle", value: "john.doe" }]],
  // IBAN-shaped but in lower case with wrong check digits: not plainly meant as an IBAN, so a token
  ["de89370400440532013001", [{ kind: "licence_number", value: "DE89370400440532013001" }, { kind: "social_handle", value: "de89370400440532013001" }]],
];
type LookupValue = { kind: LookupKind; value: string };

/** Texts that are refused, with the code. */
const REFUSED: [string, string][] = [
  ["DE89 3704 0044 0532 0130 01", "invalid_iban"], // wrong check digits
  ["GB82WEST12345698765431", "invalid_iban"],
  ["0x8ba1f109551bD432803012645Ac136ddd64DBA7", "invalid_address"], // 39 hex digits
  ["0x12", "invalid_address"],
  ["bc1qw508d6qejxtdg4y5r3zarvary0c5xw7kv8f3t5", "invalid_address"], // checksum
  ["bc1qw508d6qejxtdg4y5r3zarvary0c5xw7KV8F3T4", "invalid_address"], // mixed case
  ["ftp://example.com/file", "invalid_format"],
  ["https://user:pw@example.com/", "invalid_format"],
  ["https://localhost/x", "invalid_format"],
  ["https://127.0.0.1/", "invalid_format"],
  ["@", "invalid_format"],
  ["@@acme", "invalid_format"],
  ["hello world!", "invalid_format"],
  ["info@acme.com", "invalid_format"],
];

describe("lookup detection and normalisation (CONTRACT Lookup)", () => {
  it.each(DETECTED)("%s → %s %s", (q, kind, value) => {
    expect(detect(q)).toEqual({ candidates: [{ kind, value }] });
    // With the type named, the same value.
    expect(normalizeAs(kind, q)).toEqual({ value });
  });

  it.each(TOKENS)("bare token %s", (q, candidates) => {
    expect(detect(q)).toEqual({ candidates });
  });

  it.each(REFUSED)("refuses %s (%s)", (q, code) => {
    const d = detect(q);
    expect("error" in d && d.error.code).toBe(code);
  });

  it("a named type reads the value as that kind, or refuses it with the kind's code", () => {
    expect(normalizeAs("website", "https://www.example.com/about/us?x=1")).toEqual({ value: "example.com" });
    expect(normalizeAs("listing_url", "example.com")).toEqual({ value: "https://example.com" });
    expect(normalizeAs("licence_number", "de89 3704 0044 0532 0130 01")).toEqual({ value: "DE89370400440532013001" });
    expect(normalizeAs("social_handle", "Acme")).toEqual({ value: "acme" });
    expect(normalizeAs("social_handle", "https://x.com/home")).toMatchObject({ error: { code: "invalid_format" } });
    expect(normalizeAs("iban", "DE89370400440532013001")).toMatchObject({ error: { code: "invalid_iban" } });
    expect(normalizeAs("wallet", "acme")).toMatchObject({ error: { code: "invalid_address" } });
    expect(normalizeAs("wallet", "1BvBMSEYstWetqTFn5Au4m4GFg7xJaNVN3")).toMatchObject({ error: { code: "invalid_address" } }); // checksum
    expect(normalizeAs("website", "localhost")).toMatchObject({ error: { code: "invalid_domain" } });
    expect(normalizeAs("website", "com")).toMatchObject({ error: { code: "invalid_domain" } });
    expect(normalizeAs("licence_number", "a#1")).toMatchObject({ error: { code: "invalid_format" } });
  });

  it("is idempotent: a normalised value normalises to itself", () => {
    for (const [q, kind] of DETECTED) {
      const n = normalizeAs(kind, q);
      if (!("value" in n)) throw new Error(q);
      expect(normalizeAs(kind, n.value), q).toEqual(n);
    }
  });
});
