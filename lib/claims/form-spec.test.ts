import { describe, expect, it } from "vitest";
import { EVIDENCE_LEVELS, type RecordCreateInput } from "@/lib/record-model/schemas";
import { besideField, fieldFor, inPlainWords, requestFromForm, utcTimestamp } from "./form-request";
import { claimFormSpec, claimFormSpecs, jsonObject } from "./form-spec";
import { documentedClaimTypes } from "./registry";
import { z } from "zod";

const specs = claimFormSpecs(365);
const names = (key: string) => specs.find((s) => s.key === key)!.fields.map((f) => f.name);

describe("the new-record form is generated from the claim-type definitions", () => {
  it("offers every documented type, the reviewed fallback last", () => {
    expect(specs.map((s) => s.key)).toEqual(documentedClaimTypes().map((m) => m.type));
    expect(specs.at(-1)!.namesItsType).toBe(true);
  });

  it("takes evidence fields from the evidence schema, required as the schema says", () => {
    for (const mod of documentedClaimTypes()) {
      const spec = claimFormSpec(mod, 365);
      if (spec.href || !mod.docs.evidenceSchema) continue;
      const { properties, required } = jsonObject(mod.docs.evidenceSchema);
      const evidence = spec.fields.filter((f) => f.name.startsWith("evidence."));
      // A nested object (a listing's payee) is one field per property, in a section of its own.
      const expected = Object.entries(properties).flatMap(([k, p]) =>
        p.type === "object" && p.properties ? Object.keys(p.properties).map((sub) => `evidence.${k}.${sub}`) : [`evidence.${k}`]);
      expect(evidence.map((f) => f.name)).toEqual(expected);
      for (const f of evidence) {
        const [, key, sub] = f.name.split(".");
        const inner = sub ? (properties[key!]!.required ?? []).includes(sub) : true;
        expect(f.required).toBe(required.includes(key!) && inner);
        expect(f.section?.name).toBe(sub ? `evidence.${key}` : undefined);
      }
    }
  });

  it("an enum becomes a select with its values; a description becomes help", () => {
    const mod = {
      ...documentedClaimTypes()[0]!, type: "x_test",
      request: { ...documentedClaimTypes()[0]!.request, form: undefined, levels: undefined },
      docs: { ...documentedClaimTypes()[0]!.docs, evidenceSchema: z.strictObject({ n: z.enum(["a", "b"]), s: z.string().optional().describe("Some help.") }).meta({ id: "XTestEvidence" }) },
    };
    const spec = claimFormSpec(mod, 365);
    const n = spec.fields.find((f) => f.name === "evidence.n")!;
    expect(n).toMatchObject({ kind: "select", required: true, options: [{ value: "a" }, { value: "b" }] });
    expect(spec.fields.find((f) => f.name === "evidence.s")).toMatchObject({ kind: "text", required: false, help: "Some help.", label: "S" });
    expect(spec.fields.some((f) => f.name === "evidence_level")).toBe(false);
    expect(spec.label).toBe("X test");
  });

  it("types proved with a challenge link to their flow and ask nothing", () => {
    for (const s of specs.filter((s) => s.href)) expect(s.fields).toEqual([]);
  });

  it("the reviewed fallback asks for the claim type and the source", () => {
    const fallback = specs.at(-1)!;
    expect(names(fallback.key)).toEqual(["claim_type", "subject", "claim", "source_name", "source_url", "checked_at", "documents", "evidence_level", "visibility", "expires_at"]);
    expect(fallback.fields.find((f) => f.name === "documents")!).toMatchObject({ kind: "files", required: false });
    expect(fallback.fields.find((f) => f.name === "source_url")!.kind).toBe("url");
    expect(fallback.fields.find((f) => f.name === "checked_at")!.kind).toBe("datetime");
  });
});

describe("a type's own top-level fields (docs.fieldsSchema) become form fields", () => {
  const mod = {
    ...documentedClaimTypes()[0]!, type: "x_own",
    request: {
      ...documentedClaimTypes()[0]!.request,
      levels: ["participant_attested", "source_verified"] as const,
      form: {
        label: "X", summary: "x", evidenceTitle: "The thing", expiresWith: "until", levelHelp: { source_verified: "Needs a signature." },
        fields: { "limits.cap": { label: "Cap" }, until: { asText: true } },
      },
    },
    docs: {
      ...documentedClaimTypes()[0]!.docs, evidenceSchema: undefined,
      fieldsSchema: z.strictObject({
        who: z.string().max(50).describe("Who."),
        limits: z.strictObject({ cap: z.string().describe("The cap."), unit: z.string().optional() }).optional(),
        until: z.iso.datetime({ offset: true }).optional(),
        at: z.iso.datetime({ offset: true }).optional(),
      }).meta({ id: "XOwnFields" }),
    },
  };
  const spec = claimFormSpec(mod, 365);
  const f = (name: string) => spec.fields.find((x) => x.name === name);

  it("in the schema's order, a nested object's properties named by their path, under the type's heading", () => {
    expect(spec.fields.map((x) => x.name)).toEqual(["subject", "claim", "who", "limits.cap", "limits.unit", "until", "at", "evidence_level", "visibility"]);
    expect(spec.evidenceTitle).toBe("The thing");
    expect(f("who")).toMatchObject({ group: "evidence", required: true, help: "Who.", label: "Who", maxLength: 50, kind: "text" });
    // Required only when its object is: an optional object's fields are all optional.
    expect(f("limits.cap")).toMatchObject({ required: false, label: "Cap", help: "The cap." });
    expect(f("limits.unit")).toMatchObject({ required: false, label: "Unit", section: { name: "limits", label: "Limits", required: false } });
  });

  it("a timestamp the type marks asText is a plain text box; others a datetime; expires_at gives way to the type's own end", () => {
    expect(f("until")!.kind).toBe("text");
    expect(f("at")!.kind).toBe("datetime");
    expect(f("expires_at")).toBeUndefined();
  });

  it("a level's help is the type's own when it gives one", () => {
    const [attested, verified] = f("evidence_level")!.options!;
    expect(verified!.help).toBe("Needs a signature.");
    expect(attested!.help).toMatch(/Your own statement/);
  });

  it("the form's values come back as the nested request; an object with no value is left out", () => {
    expect(requestFromForm(spec, { subject: "s", who: "w", "limits.cap": " 10 ", "limits.unit": "", until: "2030-01-01T00:00", at: "2030-01-01T00:00" }))
      .toEqual({ claim_type: "x_own", subject: "s", who: "w", limits: { cap: "10" }, until: "2030-01-01T00:00", at: "2030-01-01T00:00:00Z" });
    expect(requestFromForm(spec, { who: "w", "limits.cap": "", "limits.unit": "" })).toEqual({ claim_type: "x_own", who: "w" });
    expect(fieldFor(spec, "limits.cap")?.name).toBe("limits.cap");
  });

  /** The example request as the form's values: what a person would type, field by field. */
  const asValues = (example: Record<string, unknown>): Record<string, string> =>
    Object.fromEntries(Object.entries(example).flatMap(([k, v]) =>
      Array.isArray(v) ? [[k, v.join("\n")]]
      : typeof v === "object" && v !== null ? Object.entries(v).map(([s, w]) => [`${k}.${s}`, String(w)]) : [[k, String(v)]]));

  for (const real of documentedClaimTypes().filter((m) => m.docs.fieldsSchema)) {
    it(`${real.type}: issuable from the form — its example, typed into the form, is the request the API accepts`, () => {
      const s = claimFormSpec(real, 365);
      expect(s.href).toBeUndefined();
      const example = real.docs.example.value as RecordCreateInput;
      const values = asValues(example);
      for (const name of Object.keys(values).filter((n) => n !== "claim_type")) expect(s.fields.map((x) => x.name)).toContain(name);
      const body = requestFromForm(s, values);
      expect(body).toEqual(example);
      expect(real.request.validate(body as RecordCreateInput)).toBeNull();
    });
  }
});

describe("a type whose wallet signs a challenge (form.walletChallenge)", () => {
  const base = documentedClaimTypes()[0]!;
  const mod = {
    ...base, type: "x_wallet",
    request: { ...base.request, form: { label: "X", summary: "x", walletChallenge: true as const } },
    docs: {
      ...base.docs,
      evidenceSchema: z.strictObject({ challenge_id: z.string(), signature: z.string(), handle: z.string() }).meta({ id: "XWalletEvidence" }),
    },
  };
  const spec = claimFormSpec(mod, 365);
  const kind = (name: string) => spec.fields.find((x) => x.name === name)?.kind;

  it("the subject, challenge id and signature are filled by the wallet step, not typed; the rest is asked as usual", () => {
    expect(spec.walletChallenge).toEqual({ subject: "subject", challengeId: "evidence.challenge_id", signature: "evidence.signature" });
    expect([kind("subject"), kind("evidence.challenge_id"), kind("evidence.signature")]).toEqual(["wallet", "wallet", "wallet"]);
    expect(kind("claim")).toBe("textarea");
    expect(kind("evidence.handle")).toBe("text");
    expect(requestFromForm(spec, { subject: "0xabc", "evidence.challenge_id": "wch_1", "evidence.signature": "0x99", "evidence.handle": "@a", claim: "c" }))
      .toEqual({ claim_type: "x_wallet", subject: "0xabc", claim: "c", evidence: { challenge_id: "wch_1", signature: "0x99", handle: "@a" } });
  });

  it("a type without it has no wallet fields", () => {
    const plain = claimFormSpec({ ...mod, request: { ...mod.request, form: { label: "X", summary: "x" } } }, 365);
    expect(plain.walletChallenge).toBeUndefined();
    expect(plain.fields.some((x) => x.kind === "wallet")).toBe(false);
  });

  it("every real type that declares it has a wallet challenge of its own and fills exactly those three fields from it", () => {
    const declaring = documentedClaimTypes().filter((m) => m.request.form?.walletChallenge);
    expect(declaring.length).toBeGreaterThan(0);
    for (const m of declaring) {
      expect(m.challenge?.kind).toBe("wallet");
      const s = claimFormSpec(m, 365);
      expect(s.href).toBeUndefined();
      expect(s.fields.filter((x) => x.kind === "wallet").map((x) => x.name).sort()).toEqual(["evidence.challenge_id", "evidence.signature", "subject"]);
    }
  });
});

describe("levels: what the form offers is what validate accepts", () => {
  for (const mod of documentedClaimTypes()) {
    it(mod.type, () => {
      expect(mod.request.levels?.length).toBeGreaterThan(0);
      const example = mod.docs.example.value as RecordCreateInput;
      for (const level of EVIDENCE_LEVELS) {
        const problem = mod.request.validate({ ...example, evidence_level: level });
        if (mod.request.levels!.includes(level)) expect(problem).toBeNull();
        else expect(problem?.code).toBe("evidence_level_not_allowed");
      }
      const spec = claimFormSpec(mod, 365);
      if (!spec.href) expect(spec.fields.find((f) => f.name === "evidence_level")!.options!.map((o) => o.value)).toEqual(mod.request.levels);
    });
  }
});

describe("form values become the API request", () => {
  const withEvidence = specs.find((s) => !s.href && s.fields.some((f) => f.name.startsWith("evidence.")))!;
  const fallback = specs.at(-1)!;

  it("evidence fields go under evidence; empty fields are left out; the claim type is the choice", () => {
    const ev = withEvidence.fields.find((f) => f.name.startsWith("evidence.") && f.required)!;
    const body = requestFromForm(withEvidence, { subject: " Acme ", claim: "x", [ev.name]: "v", visibility: "public", expires_at: "" });
    expect(body).toEqual({ claim_type: withEvidence.key, subject: "Acme", claim: "x", evidence: { [ev.name.slice(9)]: "v" }, visibility: "public" });
    expect(requestFromForm(withEvidence, {})).toEqual({ claim_type: withEvidence.key, evidence: {} });
  });

  it("the reviewed fallback sends the typed claim type, and datetimes as UTC", () => {
    const body = requestFromForm(fallback, { claim_type: "press_coverage", checked_at: "2026-01-30T09:00", source_name: "FT" });
    expect(body).toEqual({ claim_type: "press_coverage", checked_at: "2026-01-30T09:00:00Z", source_name: "FT" });
    expect(utcTimestamp("2026-01-30T09:00:05")).toBe("2026-01-30T09:00:05Z");
    expect(utcTimestamp("yesterday")).toBe("yesterday");
  });

  it("an error's param finds its field, and its message reads beside it", () => {
    const field = fieldFor(fallback, "source_name")!;
    expect(field.name).toBe("source_name");
    expect(fieldFor(fallback, "evidence")).toBeUndefined();
    expect(fieldFor(fallback, undefined)).toBeUndefined();
    expect(besideField(field, "source_name", "'source_name' is required for a claim type checked by a reviewer."))
      .toBe("This field is required for a claim type checked by a reviewer.");
    expect(besideField(field, "source_name", "Give 'source_name' please.")).toBe(`Give “${field.label}” please.`);
    const ev = withEvidence.fields.find((f) => f.name.startsWith("evidence."))!;
    expect(fieldFor(withEvidence, `${ev.name}.inner`)?.name).toBe(ev.name);
  });

  it("a choice's values in its error are the names the form gives them", () => {
    const choice = { name: "kind", label: "Kind", kind: "select" as const, required: true, group: "evidence" as const,
      options: [{ value: "a_b", label: "A and B" }, { value: "plain", label: "plain" }, { value: "c", label: "See" }] };
    expect(besideField(choice, "kind", "'kind' must be one of: a_b, plain, c."))
      .toBe("This field must be one of: “A and B”, plain, “See”.");
  });
});

describe("nested evidence (a listing's payee and licence) is generated as structured fields", () => {
  /** The types whose evidence has a nested object: found in the registry, so a new one is covered too. */
  const nested = documentedClaimTypes().filter((m) => {
    if (!m.docs.evidenceSchema) return false;
    return Object.values(jsonObject(m.docs.evidenceSchema).properties).some((p) => p.type === "object");
  });

  it("some registered type has nested evidence (else this block tests nothing)", () => {
    expect(nested.length).toBeGreaterThan(0);
  });

  /** Every leaf of an example's evidence as the form value of its path: what a person would type. */
  const leaves = (o: Record<string, unknown>, prefix: string): [string, string][] =>
    Object.entries(o).flatMap(([k, v]) =>
      typeof v === "object" && v !== null && !Array.isArray(v) ? leaves(v as Record<string, unknown>, `${prefix}${k}.`) : [[`${prefix}${k}`, String(v)]]);

  for (const mod of nested) {
    it(`${mod.type}: its example, typed field by field, is the request the API takes — objects, not text`, () => {
      const spec = claimFormSpec(mod, 365);
      const { evidence, claim_type: _t, ...top } = mod.docs.example.value as { evidence: Record<string, unknown>; claim_type: string };
      const values = Object.fromEntries([...leaves(top, ""), ...leaves(evidence, "evidence.")]);
      for (const name of Object.keys(values)) expect(spec.fields.map((f) => f.name)).toContain(name);
      const body = requestFromForm(spec, values);
      expect(body).toEqual(mod.docs.example.value);
      expect(mod.request.validate(body as RecordCreateInput)).toBeNull();
    });

    it(`${mod.type}: an optional nested object left empty is not sent; a required one left empty is named beside its first field`, () => {
      const spec = claimFormSpec(mod, 365);
      const sections = [...new Map(spec.fields.flatMap((f) => (f.section ? [[f.section.name, f.section]] : []))).values()];
      for (const section of sections) {
        const body = requestFromForm(spec, {}) as { evidence: Record<string, unknown> };
        expect(body.evidence[section.name.split(".").at(-1)!]).toBeUndefined();
        const first = spec.fields.find((f) => f.section?.name === section.name)!;
        expect(fieldFor(spec, section.name)?.name).toBe(first.name);
      }
    });
  }

  it("the listing: payee and licence are sections with plain labels; the payee's kind offers words, not codes", () => {
    const listing = specs.find((s) => s.fields.some((f) => f.name === "evidence.payee.type"))!;
    const type = listing.fields.find((f) => f.name === "evidence.payee.type")!;
    expect(type).toMatchObject({ kind: "select", required: true, section: { name: "evidence.payee", required: true } });
    expect(type.options!.map((o) => o.label)).toEqual(["A bank account (IBAN)", "A crypto wallet"]);
    const authority = listing.fields.find((f) => f.name === "evidence.licence.authority")!;
    expect(authority).toMatchObject({ required: false, section: { name: "evidence.licence", required: false } });
    expect(requestFromForm(listing, { "evidence.payee.type": "iban", "evidence.payee.value": " DE89 3704 0044 0532 0130 00 ", "evidence.licence.number": "" }))
      .toEqual({ claim_type: listing.key, evidence: { payee: { type: "iban", value: "DE89 3704 0044 0532 0130 00" } } });
    // The reviewer's checklist asks for a bank letter: the listing's form takes documents.
    expect(listing.fields.find((f) => f.name === "documents")).toMatchObject({ kind: "files" });
  });

  it("a secret (an exchange API secret) is a password box", () => {
    const secretSpecs = documentedClaimTypes().filter((m) => (m.request.secrets ?? []).length > 0 && m.docs.evidenceSchema);
    expect(secretSpecs.length).toBeGreaterThan(0);
    for (const m of secretSpecs) {
      const spec = claimFormSpec(m, 365);
      for (const s of m.request.secrets!) {
        const f = spec.fields.find((x) => x.name === `evidence.${s}`);
        if (f) expect(f.kind).toBe("secret");
      }
    }
  });
});

describe("errors are said in the form's words", () => {
  const listing = specs.find((s) => s.fields.some((f) => f.name === "evidence.payee.type"))!;
  const kinds = new Map(specs.map((s) => [s.key, s.label]));
  const walletType = [...kinds.keys()].find((k) => /wallet/.test(k) && k.includes("_"))!;

  it("field paths and snake_case names become labels, claim type codes their names", () => {
    const said = inPlainWords(listing, `payee_record must be a ${walletType} record; 'evidence.payee.value' is wrong.`, kinds);
    expect(said).toBe(`“Your wallet record” must be a “${kinds.get(walletType)}” record; “Payee: IBAN or wallet address” is wrong.`);
    expect(said).not.toMatch(/evidence\.|_record|_ownership/);
  });

  it("a list's entry is named by its place; a list is typed one per line or with commas", () => {
    const agent = specs.find((s) => s.fields.some((f) => f.kind === "list"))!;
    const list = agent.fields.find((f) => f.kind === "list")!;
    const short = list.name.split(".").at(-1)!;
    expect(inPlainWords(agent, `${short}[1]: no such record.`, kinds)).toBe(`“${list.label}” (entry 2): no such record.`);
    expect(requestFromForm(agent, { [list.name]: " PRS-A\nPRS-B, PRS-C " })[list.name]).toEqual(["PRS-A", "PRS-B", "PRS-C"]);
    expect(fieldFor(agent, `${list.name}[1]`)?.name).toBe(list.name);
  });

  it("developer words (snake_case, RFC 3339, types) are said plainly", () => {
    const fallback = specs.at(-1)!;
    const said = inPlainWords(fallback, "'claim_type' must be snake_case: a lower-case letter. 'checked_at' must be an RFC 3339 timestamp with a time zone, such as 2026-01-31T12:00:00Z. 'x' must be of type object.", kinds);
    expect(said).not.toMatch(/snake_case|RFC 3339|of type object|'claim_type'|'checked_at'/);
    expect(said).toContain("“Claim type” must be a short name");
  });

  it("a field named by a plain word (claim, subject) is replaced only when quoted: prose stays prose", () => {
    const fallback = specs.at(-1)!;
    expect(inPlainWords(fallback, "'source_name' is required for a claim type checked by a reviewer; 'claim' is empty.", kinds))
      .toBe("“Source” is required for a claim type checked by a reviewer; “Claim” is empty.");
  });

  it("beside its field, the field's own name is 'This field'", () => {
    const value = fieldFor(listing, "evidence.payee.value")!;
    expect(besideField(value, "evidence.payee.value", "'evidence.payee.value' must not be empty.", listing, kinds)).toBe("This field must not be empty.");
    const first = fieldFor(listing, "evidence.payee")!;
    expect(besideField(first, "evidence.payee", "'evidence.payee' is required.", listing, kinds)).toBe("This field is required.");
  });
});
