import { checkJsonInput } from "@/lib/http/json-guard";

/**
 * Longer than any value a portal form takes (the longest, a record's evidence field, is cut at
 * 100,000 characters by lib/claims/form-request.ts): anything longer is refused, not cut.
 */
export const MAX_ACTION_TEXT = 100_000;

/**
 * Why a server action's arguments cannot be taken, or null: the JSON input guard of the API
 * (lib/http/json-guard.ts: no NUL, no lone surrogate, no `__proto__`, bounded nesting) applied
 * to every form field (its name, its text, an uploaded file's name) and to every other
 * argument (a form's previous state, the values a client component passes), plus a bound on
 * each text's length. Checked before the action reads anything, so nothing is half-written.
 */
export function actionInputProblem(args: readonly unknown[]): string | null {
  for (const arg of args) {
    if (arg instanceof FormData) {
      for (const [name, value] of arg.entries()) {
        const text = typeof value === "string" ? value : value.name;
        const bad = checkJsonInput({ [name]: text });
        if (bad) return said(bad.message);
        if (text.length > MAX_ACTION_TEXT) return `The field '${name.slice(0, 100)}' is longer than ${MAX_ACTION_TEXT.toLocaleString("en")} characters.`;
      }
      continue;
    }
    const bad = checkJsonInput(arg);
    if (bad) return said(bad.message);
    if (longestText(arg) > MAX_ACTION_TEXT) return `A value sent is longer than ${MAX_ACTION_TEXT.toLocaleString("en")} characters.`;
  }
  return null;
}

/** The guard's message as a form shows it: "'name' must not…" → "The field 'name' must not…" ("''" is a bare argument). */
const said = (message: string) =>
  message.startsWith("'' ") ? `The value sent ${message.slice(3)}` : message.startsWith("'") ? `The field ${message}` : message;

/** The length of the longest string (value or key) in a JSON-like value; checkJsonInput has bounded its depth. */
function longestText(root: unknown): number {
  let longest = 0;
  const stack: unknown[] = [root];
  while (stack.length > 0) {
    const v = stack.pop();
    if (typeof v === "string") longest = Math.max(longest, v.length);
    else if (Array.isArray(v)) stack.push(...v);
    else if (v !== null && typeof v === "object") for (const [k, x] of Object.entries(v)) stack.push(k, x);
  }
  return longest;
}

/** What an action answers when its input is refused: its form's message, in the state shape the form shows. */
export type Refusal<A extends unknown[], R> = (message: string, args: A) => R;

const SUFFIX = " Nothing was saved: remove it and send the form again.";

/** For states that show `error` (ConfirmActionState, ReviewState, LinkRequestState, …). */
export const errorState = (message: string) => ({ error: message + SUFFIX });
/** For FormState states, which show `errors.form` above the form. */
export const formErrorState = (message: string) => ({ errors: { form: message + SUFFIX } });

/**
 * Every server action is exported through this (`export const xAction = guardedAction(async
 * (prev, form) => …, formErrorState)`; lib/forms/guarded-action.test.ts fails on one that is
 * not): input the API would refuse never reaches the action, and the form answers with its
 * normal error state instead of a 500. Redirects and not-found thrown by the action pass
 * through untouched.
 */
export function guardedAction<A extends unknown[], R>(action: (...args: A) => Promise<R>, refuse: Refusal<A, R>): (...args: A) => Promise<R> {
  return async (...args: A) => {
    const problem = actionInputProblem(args);
    return problem ? refuse(problem, args) : action(...args);
  };
}
