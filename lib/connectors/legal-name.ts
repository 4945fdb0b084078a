/**
 * The form two legal names are compared in: Unicode NFKC, case folded, runs of white
 * space collapsed to one space, trimmed. JavaScript has no case-fold primitive; upper-
 * then lower-casing folds the cases simple lower-casing misses ("ß" and "SS", "ﬀ" is
 * already "ff" after NFKC), and NFKC runs again because case mapping can un-normalize.
 */
export function legalNameKey(name: string): string {
  return name.normalize("NFKC").toUpperCase().toLowerCase().normalize("NFKC").replace(/\s+/gu, " ").trim();
}

/** Whether `a` and `b` name the same legal entity name, as CONTRACT compares them. */
export function sameLegalName(a: string, b: string): boolean {
  return legalNameKey(a) === legalNameKey(b);
}
