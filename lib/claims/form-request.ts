import type { ClaimFormSpec, FormField } from "./form-spec";

/** What a generated form posted, as typed, by field name: handed back on a refusal so nothing is lost. */
export type FormValues = Record<string, string>;

const LONGEST_VALUE = 100_000;

/** The values of the spec's fields in `form` (anything else posted is ignored). */
export function formValues(spec: ClaimFormSpec, form: FormData): FormValues {
  const out: FormValues = {};
  for (const f of spec.fields) {
    const v = form.get(f.name);
    if (typeof v === "string") out[f.name] = v.slice(0, LONGEST_VALUE);
  }
  return out;
}

/** A `datetime-local` value ("2026-01-30T09:00") read as UTC; anything else goes as typed, for the API to judge. */
export function utcTimestamp(v: string): string {
  const m = /^(\d{4}-\d{2}-\d{2}T\d{2}:\d{2})(:\d{2}(\.\d+)?)?$/.exec(v);
  return m ? `${m[1]}${m[2] ?? ":00"}Z` : v;
}

/**
 * The API request the form stands for: exactly what `POST /api/v1/records` takes, so the
 * pipeline judges it as it judges any client. An empty field is left out (the API then names
 * a required one as missing). A dotted name is a path: `evidence.lei` goes under `evidence`
 * (always sent when the type has evidence fields, so a missing one is named),
 * `evidence.payee.value` under `evidence.payee`, `scope.asset` under `scope` — a nested object
 * is sent only when one of its fields has a value (it may be optional). A list (an agent's
 * wallets) is typed one per line or separated by commas. Uploaded documents
 * (`files` fields) are not values: the caller stores them and sends their ids.
 */
export function requestFromForm(spec: ClaimFormSpec, values: FormValues): Record<string, unknown> {
  const body: Record<string, unknown> = spec.namesItsType ? {} : { claim_type: spec.key };
  for (const f of spec.fields) {
    if (f.kind === "files") continue;
    const path = f.name.split(".");
    if (path[0] === "evidence" && path.length > 1 && body.evidence === undefined) body.evidence = {};
    const v = (values[f.name] ?? "").trim();
    if (v === "") continue;
    let at = body;
    for (const key of path.slice(0, -1)) {
      const next = at[key];
      at = (typeof next === "object" && next !== null ? next : (at[key] = {})) as Record<string, unknown>;
    }
    at[path.at(-1)!] = f.kind === "datetime" ? utcTimestamp(v) : f.kind === "list" ? v.split(/[\s,]+/).filter(Boolean) : v;
  }
  return body;
}

/**
 * The field an API error's `param` concerns ("evidence.lei", "records[0].subject" → its field;
 * a whole nested object, "evidence.payee", → its first field), if the form shows it.
 */
export function fieldFor(spec: ClaimFormSpec, param: string | undefined): FormField | undefined {
  if (!param) return undefined;
  return spec.fields.find((f) => param === f.name || param.startsWith(`${f.name}.`) || param.startsWith(`${f.name}[`))
    ?? spec.fields.find((f) => f.name.startsWith(`${param}.`));
}

/** A field's name in a sentence: with its section's ("Payee: value"). */
const fullLabel = (f: FormField) => (f.section ? `${f.section.label}: ${/^[A-Z][A-Z]/.test(f.label) ? f.label : f.label.charAt(0).toLowerCase() + f.label.slice(1)}` : f.label);

const escape = (s: string) => s.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");

/**
 * The API's message in the words of the form: a field's request name (`'evidence.payee.value'`,
 * `payee_record`) becomes its label, a claim type's code (`domain_ownership`) the name the form
 * gives it (`kinds`: code → label), so no customer reads a field path or a code.
 */
/** The API's developer words, as a form says them. */
const PHRASES: readonly [RegExp, string][] = [
  [/must be snake_case: /g, "must be a short name: "],
  [/must be an RFC 3339 timestamp with a time zone, such as/g, "must be a date and time with its time zone, such as"],
  [/must be of type (object|array|string|number|boolean)\./g, "is not filled in as expected."],
  [/ \(RFC 3339\)/g, ""],
];

export function inPlainWords(spec: ClaimFormSpec, text: string, kinds: ReadonlyMap<string, string> = new Map()): string {
  const message = PHRASES.reduce((m, [re, plain]) => m.replace(re, plain), text);
  const names = new Map<string, string>();
  for (const f of spec.fields) {
    names.set(f.name, fullLabel(f));
    if (f.section) names.set(f.section.name, f.section.label);
    const short = f.name.split(".").at(-1)!;
    // A snake_case name is never prose ("payee_record proves a wallet"); a plain word ("domain") may be.
    if (short.includes("_") && !names.has(short)) names.set(short, fullLabel(f));
  }
  for (const [code, label] of kinds) if (code.includes("_") && !names.has(code)) names.set(code, label);
  const sorted = [...names.keys()].sort((a, b) => b.length - a.length);
  if (sorted.length === 0) return message;
  const alt = sorted.map(escape).join("|");
  // Unquoted, only a name that is no word of prose: a path or a snake_case name ("claim" is a word).
  const bareAlt = sorted.filter((k) => /[._]/.test(k)).map(escape).join("|") || "(?!)";
  // `agent_wallets[1]` is the list's second entry.
  const re = new RegExp(`'(${alt})(?:\\[(\\d+)\\])?'|(?<![\\w.])(${bareAlt})(?:\\[(\\d+)\\])?(?![\\w])`, "g");
  return message.replace(re, (_m, quoted: string | undefined, qi: string | undefined, bare: string | undefined, bi: string | undefined) => {
    const index = qi ?? bi;
    return `“${names.get((quoted ?? bare)!)}”${index === undefined ? "" : ` (entry ${Number(index) + 1})`}`;
  });
}

/**
 * The API's message said beside its field: the field's own name ("'evidence.lei' is not an
 * LEI") reads as "This field …" there, and every other name as its label (inPlainWords).
 */
export function besideField(field: FormField, param: string, message: string, spec?: ClaimFormSpec, kinds?: ReadonlyMap<string, string>): string {
  const quoted = `'${param}'`;
  const lead = message.startsWith(quoted) ? `This field${message.slice(quoted.length)}` : message;
  const named = lead.replaceAll(quoted, `“${fullLabel(field)}”`);
  // A choice's values ("must be one of: builder, vault_leader") as the form names them.
  const own = (field.options ?? []).reduce(
    (m, o) => (o.label === o.value ? m : m.replace(new RegExp(`(?<![\\w.])${escape(o.value)}(?![\\w])`, "g"), `“${o.label}”`)), named);
  return spec ? inPlainWords(spec, own, kinds) : own;
}
