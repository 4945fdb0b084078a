import { ApiError } from "@/lib/http/errors";

/**
 * What a portal form's server action answers on a refusal: the values it was sent (the form
 * puts them back, as React resets a form after its action) and a message per field, under
 * `form` when it belongs to no one field. A secret (a password) is never among the values.
 */
export type FieldErrors<F extends string> = Partial<Record<F | "form", string>>;

export type FormState<V extends object, F extends string = keyof V & string> = {
  values?: V;
  /** Fields not sent back (a password) may still have their message: list them in F. */
  errors?: FieldErrors<F>;
};

/**
 * An ApiError placed beside the field it names (its `param`) when that is one of the form's
 * fields, else as the form's message. Its message is written for API clients and safe to show.
 */
export function apiFieldErrors<F extends string>(e: ApiError, fields: readonly F[]): FieldErrors<F> {
  const field = fields.find((f) => f === e.param);
  return field ? ({ [field]: e.message } as FieldErrors<F>) : ({ form: e.message } as FieldErrors<F>);
}

/** The string a form field was sent with ("" when absent or a file), cut to `max` characters. */
export function formText(form: FormData, name: string, max = 5000): string {
  const v = form.get(name);
  return typeof v === "string" ? v.slice(0, max) : "";
}

/** What a two-step destructive form (components/confirm-action.tsx) shows after its action. */
export type ConfirmActionState = { error?: string };
