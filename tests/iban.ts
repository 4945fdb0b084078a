import { randomInt } from "node:crypto";
import { composeIBAN } from "ibantools";

/**
 * A valid UK IBAN no other test uses (ibantools computes the check digits): a payee of the test's
 * own, so no other account of the run carries it. No vitest import: the Playwright specs use it too.
 */
export function uniqueIban(): string {
  const digits = Array.from({ length: 14 }, () => randomInt(10)).join("");
  const iban = composeIBAN({ countryCode: "GB", bban: `WEST${digits}` });
  if (!iban) throw new Error("ibantools refused a GB BBAN");
  return iban;
}
