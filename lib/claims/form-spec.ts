import { z, type ZodType } from "zod";
import { EVIDENCE_LEVEL_TEXT } from "@/lib/record-model/evidence-level-text";
import { recordCreateSchema } from "@/lib/record-model/schemas";
import { claimModuleFor, documentedClaimTypes, hasOwnModule, maxValidityDays } from "./registry";
import type { ClaimForm, ClaimModule } from "./types";

/**
 * The portal's "New record" form, generated from the claim-type definitions: one spec per
 * type, plain data a client component renders (app/records/new). Fields come from the
 * request schema (subject, claim, the source a reviewer checks, visibility, expiry), the
 * type's evidence schema (`docs.evidenceSchema`, through its JSON Schema), its own top-level
 * request fields (`docs.fieldsSchema`; a nested object's properties become fields named
 * `scope.max_amount`) and its declared levels; labels and help from the schemas'
 * descriptions and the type's `request.form` declaration. Nothing here knows a claim type by name.
 */

/** `wallet`: filled in by the form's wallet step (a signed wallet challenge), never typed. */
export type FormFieldKind = "text" | "textarea" | "url" | "datetime" | "select" | "choice" | "secret" | "files" | "list" | "wallet";
export type FormOption = { value: string; label: string; help?: string };
export type FormField = {
  /** The request path the value goes to: "subject", "evidence.lei", "source_url", "scope.max_amount". */
  name: string;
  label: string;
  kind: FormFieldKind;
  required: boolean;
  /** Where the form shows it: what is claimed, what backs it, how the record is kept. */
  group: "claim" | "evidence" | "record";
  help?: string;
  placeholder?: string;
  maxLength?: number;
  options?: readonly FormOption[];
  defaultValue?: string;
  /**
   * The nested object the field belongs to (`evidence.payee` for `evidence.payee.value`): the
   * form shows its fields together under its label; `required` says whether the object must be given at all.
   */
  section?: FormSection;
};
export type FormSection = { name: string; label: string; help?: string; required: boolean };
export type ClaimFormSpec = {
  /** What the form posts as `choice`: the module's claim type ("*" for the reviewed fallback). */
  key: string;
  label: string;
  summary: string;
  /** Issued elsewhere in the portal (a challenge flow): the form links there and asks nothing. */
  href?: string;
  /** The person types the claim_type (field `claim_type`). */
  namesItsType: boolean;
  /** The heading over the "evidence" group, when the type names it (e.g. "The mandate"). */
  evidenceTitle?: string;
  /**
   * The browser wallet signs a wallet challenge requested with this `key` as claim type; the
   * fields it fills, named here (WALLET_FIELDS), are of kind `wallet`.
   */
  walletChallenge?: WalletFields;
  fields: FormField[];
};

/** The request paths a signed wallet challenge fills (ClaimForm.walletChallenge). */
export type WalletFields = { subject: string; challengeId: string; signature: string };
export const WALLET_FIELDS: WalletFields = { subject: "subject", challengeId: "evidence.challenge_id", signature: "evidence.signature" };
const WALLET_FIELD_NAMES: readonly string[] = Object.values(WALLET_FIELDS);

type JsonProp = {
  type?: string; enum?: unknown[]; const?: unknown; format?: string; description?: string; maxLength?: number; $ref?: string;
  properties?: Record<string, JsonProp>; required?: string[];
};
type JsonObject = { properties: Record<string, JsonProp>; required: string[] };

/** A zod object schema's properties as JSON Schema, its `$ref`s (from `.meta({id})`) resolved. */
export function jsonObject(schema: ZodType): JsonObject {
  const doc = z.toJSONSchema(schema, { io: "input", unrepresentable: "any" }) as Record<string, unknown>;
  const defs = (doc.$defs ?? {}) as Record<string, Record<string, unknown>>;
  const deref = <T>(s: Record<string, unknown>): T => {
    const ref = typeof s.$ref === "string" ? /^#\/\$defs\/(.+)$/.exec(s.$ref)?.[1] : undefined;
    return (ref && defs[ref] ? defs[ref] : s) as T;
  };
  const root = deref<{ properties?: Record<string, Record<string, unknown>>; required?: string[] }>(doc);
  const properties = Object.fromEntries(Object.entries(root.properties ?? {}).map(([k, v]) => [k, deref<JsonProp>(v)]));
  return { properties, required: root.required ?? [] };
}

export const humanize = (key: string) => {
  const words = key.replaceAll("_", " ");
  return words.charAt(0).toUpperCase() + words.slice(1);
};

/** The values an enum (or a single literal, `const`) allows. */
const allowed = (p: JsonProp): unknown[] | undefined => (Array.isArray(p.enum) ? p.enum : p.const !== undefined ? [p.const] : undefined);

function kindOf(p: JsonProp, asText: boolean, secret: boolean): FormFieldKind {
  if (allowed(p)) return "select";
  if (p.type === "array") return "list";
  if (secret) return "secret";
  if (asText) return "text";
  if (p.format === "uri") return "url";
  if (p.format === "date-time") return "datetime";
  return (p.maxLength ?? 0) > 300 ? "textarea" : "text";
}

/** One field from a JSON Schema property, with the type's own label, help and placeholder on top. */
function fieldFrom(
  name: string, key: string, p: JsonProp, required: boolean, group: FormField["group"], form: ClaimForm | undefined,
  base?: { label: string; help?: string }, secrets: readonly string[] = [],
): FormField {
  const own = form?.fields?.[name] ?? {};
  const kind = kindOf(p, own.asText === true, secrets.includes(key));
  return {
    name, kind, required, group,
    label: own.label ?? base?.label ?? humanize(key),
    ...optional("help", own.help ?? base?.help ?? p.description),
    ...optional("placeholder", own.placeholder),
    ...optional("maxLength", p.maxLength),
    ...optional("defaultValue", own.default),
    ...(kind === "select" ? { options: (allowed(p) ?? []).map((v) => ({ value: String(v), label: own.options?.[String(v)] ?? String(v) })) } : {}),
  };
}

const optional = <K extends string, V>(k: K, v: V | undefined) => (v === undefined ? {} : ({ [k]: v } as Record<K, V>));

/** The request fields a form asks for, with the labels and help the API's own schema does not carry. */
const BASE: Record<string, { label: string; help?: string }> = {
  claim_type: { label: "Claim type" },
  subject: { label: "Subject" },
  claim: { label: "Claim", help: "The statement the record makes, in plain words. It appears on the certificate as written." },
  source_name: { label: "Source name" },
  source_url: { label: "Source URL" },
  checked_at: { label: "Checked at (UTC)" },
};

/** What choosing each level means, said to the person making the record (the certificate says it to the reader). */
const LEVEL_HELP: Record<string, string> = {
  participant_attested: "Your own statement: signed as you made it, not checked against any source. The certificate says so.",
  source_verified: "Checked automatically against the source when you press “Create record”.",
  evidence_verified: "Confirmed by a Proof Records reviewer against the source you name; nothing is issued until then.",
};

const VISIBILITY: readonly FormOption[] = [
  { value: "private", label: "Private", help: "Anyone with the link or the record id can check it; it is not listed in lookup or the directory." },
  { value: "public", label: "Public", help: "Also listed: found by lookup and shown in the directory (live, active records only). Sandbox records are always private, whatever is chosen here." },
];

/** The spec of one claim type's form; `defaultValidityDays` is the service's default validity (env). */
export function claimFormSpec(mod: ClaimModule, defaultValidityDays: number): ClaimFormSpec {
  const form = mod.request.form;
  const spec = {
    key: mod.type, label: form?.label ?? humanize(mod.type), summary: form?.summary ?? mod.docs.describe, namesItsType: form?.namesItsType === true,
    ...optional("evidenceTitle", form?.evidenceTitle),
    ...(form?.walletChallenge ? { walletChallenge: WALLET_FIELDS } : {}),
  };
  if (form?.href) return { ...spec, href: form.href, fields: [] };

  const request = jsonObject(recordCreateSchema);
  const top = (name: string, group: FormField["group"], required: boolean) =>
    fieldFrom(name, name, request.properties[name] ?? {}, required, group, form, BASE[name]);

  const fields: FormField[] = [];
  if (spec.namesItsType) fields.push(top("claim_type", "claim", true));
  fields.push(top("subject", "claim", true), top("claim", "claim", true));
  const secrets = mod.request.secrets ?? [];
  // The type's own top-level fields (what the record is: a dex_control's subtype) before its evidence.
  if (mod.docs.fieldsSchema) fields.push(...objectFields(mod.docs.fieldsSchema, "", form, secrets));
  if (mod.docs.evidenceSchema) fields.push(...objectFields(mod.docs.evidenceSchema, "evidence.", form, secrets));
  // The request schema leaves these optional for every type; a type that asks for them needs them.
  for (const name of form?.requestFields ?? []) fields.push(top(name, "evidence", true));
  if (form?.documents) {
    fields.push({ name: "documents", label: form.documents.label ?? "Documents for the reviewer", kind: "files", required: false, group: "evidence", help: `${form.documents.help} ${DOCUMENTS_HELP}` });
  }

  const levels = mod.request.levels ?? [];
  if (levels.length > 0) {
    fields.push({
      name: "evidence_level", label: "Evidence level", kind: "choice", required: true, group: "record",
      help: levels.length === 1 ? "The only level this kind of record can have: the service never states more than it checked." : undefined,
      options: levels.map((l) => ({ value: l, label: EVIDENCE_LEVEL_TEXT[l]?.title ?? l, help: form?.levelHelp?.[l] ?? LEVEL_HELP[l] })),
      defaultValue: levels[0],
    });
  }
  fields.push({ name: "visibility", label: "Visibility", kind: "choice", required: true, group: "record", options: VISIBILITY, defaultValue: "private" });
  // A type whose own field sets the end (a mandate's valid_until) refuses expires_at: the form does not offer it.
  if (!form?.expiresWith) {
    fields.push({
      ...top("expires_at", "record", false),
      label: "Expires at (UTC)",
      help: `Leave empty for the default: ${maxValidityDays(mod) ?? defaultValidityDays} days after issue${maxValidityDays(mod) ? ", the longest this kind of record is valid" : ""}.`,
    });
  }
  // A signed wallet challenge fills these: the form's wallet step, not the person, gives them.
  const filled = form?.walletChallenge ? fields.map((f) => (WALLET_FIELD_NAMES.includes(f.name) ? { ...f, kind: "wallet" as const } : f)) : fields;
  return { ...spec, fields: filled };
}

/** What the upload field says about every document, whatever the type asks for. */
export const DOCUMENTS_HELP = "PDF, PNG or JPEG, up to 10 MiB each, at most 10. Only you and Proof Records reviewers can open them; they are never published and are deleted 90 days after the decision.";

/**
 * The fields of an object schema (a type's evidence, under `evidence.`, or its own top-level
 * request fields), in the schema's order. A nested object (a listing's `payee`, an agent's
 * `scope`) gives one field per property, named by its path (`evidence.payee.value`), in a
 * section of its own; a field is required when both it and its object are (form-request.ts
 * puts the object back together, and leaves an optional one out when nothing of it is filled).
 */
function objectFields(schema: ZodType, prefix: string, form: ClaimForm | undefined, secrets: readonly string[]): FormField[] {
  const { properties, required } = jsonObject(schema);
  return Object.entries(properties).flatMap(([key, p]) => {
    const name = `${prefix}${key}`;
    if (p.type === "object" && p.properties) {
      const inner = p.required ?? [];
      const own = form?.fields?.[name] ?? {};
      const section: FormSection = {
        name, label: own.label ?? humanize(key), required: required.includes(key), ...optional("help", own.help ?? p.description),
      };
      return Object.entries(p.properties).map(([sub, q]) => ({
        ...fieldFrom(`${name}.${sub}`, sub, q, section.required && inner.includes(sub), "evidence", form, undefined, secrets),
        section,
      }));
    }
    return [fieldFrom(name, key, p, required.includes(key), "evidence", form, undefined, secrets)];
  });
}

/** Every claim type's form, in the registry's order (the reviewed fallback last). */
export const claimFormSpecs = (defaultValidityDays: number): ClaimFormSpec[] =>
  documentedClaimTypes().map((m) => claimFormSpec(m, defaultValidityDays));

/**
 * A claim type in plain words, for customer screens: its form's label ("Company status,
 * stated by you"), or for a reviewed type without a module of its own its code spelled out
 * ("press_coverage" → "Press coverage").
 */
export const claimTypeLabel = (claimType: string): string => {
  if (!hasOwnModule(claimType)) return humanize(claimType);
  const mod = claimModuleFor(claimType);
  return mod.request.form?.label ?? humanize(claimType);
};
