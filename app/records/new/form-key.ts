import { randomUUID } from "node:crypto";

/**
 * The idempotency key a "New record" form carries (a hidden field): fresh for every page
 * view, kept across refusals, so a double submit or a retry replays the first answer. Its
 * own prefix keeps it apart from the keys the account's API clients send.
 */
export const FORM_KEY_RE = /^portal-record-[0-9a-f-]{36}$/;
export const newFormKey = () => `portal-record-${randomUUID()}`;
