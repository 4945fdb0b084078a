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
 * (always sent when the type has evidence fields, so a missing one is named), `scope.asset`
 * under `scope` (sent only when one of its fields has a value: the object may be optional).
 */
export function requestFromForm(spec: ClaimFormSpec, values: FormValues): Record<string, unknown> {
  const body: Record<string, unknown> = spec.namesItsType ? {} : { claim_type: spec.key };
  const objects = new Map<string, Record<string, unknown>>();
  for (const f of spec.fields) {
    const v = (values[f.name] ?? "").trim();
    const [head, ...rest] = f.name.split(".");
    if (head === "evidence" && rest.length > 0 && !objects.has(head)) objects.set(head, {});
    if (v === "") continue;
    const value = f.kind === "datetime" ? utcTimestamp(v) : v;
    if (rest.length === 0) {
      body[f.name] = value;
      continue;
    }
    const inner = objects.get(head!) ?? {};
    inner[rest.join(".")] = value;
    objects.set(head!, inner);
  }
  for (const [k, v] of objects) body[k] = v;
  return body;
}

/** The field an API error's `param` concerns ("evidence.lei", "records[0].subject" → its field), if the form shows it. */
export function fieldFor(spec: ClaimFormSpec, param: string | undefined): FormField | undefined {
  if (!param) return undefined;
  return spec.fields.find((f) => param === f.name || param.startsWith(`${f.name}.`) || param.startsWith(`${f.name}[`));
}

/**
 * The API's message said beside its field: the field's own name ("'evidence.lei' is not an
 * LEI") reads as "This field …" there, and as its label anywhere else in the sentence.
 */
export function besideField(field: FormField, param: string, message: string): string {
  const quoted = `'${param}'`;
  const lead = message.startsWith(quoted) ? `This field${message.slice(quoted.length)}` : message;
  return lead.replaceAll(quoted, `“${field.label}”`);
}
