/**
 * LEI syntax (ISO 17442): 18 upper-case letters or digits, then two check digits computed
 * with ISO 7064 MOD 97-10 — letters read as numbers A=10 … Z=35 and the whole string, as
 * one integer, is 1 modulo 97. Checked before the register is asked, so a mistyped LEI is
 * a 422, not a call.
 */
export const LEI_RE = /^[A-Z0-9]{18}[0-9]{2}$/;

/** The LEI (or its 18-character base followed by "00") as the integer MOD 97-10 works on. */
const asNumber = (s: string) => BigInt(s.replace(/[A-Z]/g, (c) => String(c.charCodeAt(0) - 55)));

export function isValidLei(lei: string): boolean {
  return LEI_RE.test(lei) && asNumber(lei) % 97n === 1n;
}

/** The two check digits for an 18-character base (upper-case letters and digits). */
export function leiCheckDigits(base: string): string {
  if (!/^[A-Z0-9]{18}$/.test(base)) throw new Error("An LEI base is 18 upper-case letters or digits.");
  return String(98n - (asNumber(`${base}00`) % 97n)).padStart(2, "0");
}
