/**
 * Edit distance with adjacent transpositions (optimal string alignment, a restricted
 * Damerau-Levenshtein): `company_stauts` is one edit from `company_status`. Claim types are
 * at most 64 characters, so the plain O(n·m) table is cheap; stops early once every cell
 * of a row exceeds `max`.
 */
export function editDistance(a: string, b: string, max = Infinity): number {
  if (Math.abs(a.length - b.length) > max) return max + 1;
  let prev2: number[] = [];
  let prev = Array.from({ length: b.length + 1 }, (_, j) => j);
  for (let i = 1; i <= a.length; i++) {
    const cur = [i];
    let rowMin = i;
    for (let j = 1; j <= b.length; j++) {
      const cost = a[i - 1] === b[j - 1] ? 0 : 1;
      let d = Math.min(prev[j]! + 1, cur[j - 1]! + 1, prev[j - 1]! + cost);
      if (i > 1 && j > 1 && a[i - 1] === b[j - 2] && a[i - 2] === b[j - 1]) d = Math.min(d, prev2[j - 2]! + 1);
      cur.push(d);
      rowMin = Math.min(rowMin, d);
    }
    if (rowMin > max) return max + 1;
    prev2 = prev;
    prev = cur;
  }
  return prev[b.length]!;
}

/** How far a claim_type may be from a known one to be taken for a typo of it. */
export const TYPO_DISTANCE = 2;

/**
 * The known claim type `claimType` is most likely a typo of: the nearest within
 * TYPO_DISTANCE edits (ties: the first in `known`), or null when it is known itself or far
 * from all of them.
 */
export function nearestClaimType(claimType: string, known: readonly string[]): string | null {
  if (known.includes(claimType)) return null;
  let best: string | null = null;
  let bestDistance = TYPO_DISTANCE + 1;
  for (const k of known) {
    const d = editDistance(claimType, k, TYPO_DISTANCE);
    if (d < bestDistance) [best, bestDistance] = [k, d];
  }
  return best;
}
