/**
 * How a key is shown once its secret is gone: its prefix and last four characters,
 * `prs_live_…Wx3k` (CONTRACT "Names": nothing else of the key is kept). Keys made before
 * the last four were kept show `????` there and are told apart by their key id.
 */
export function keyDisplay(k: { keyPrefix: string; lastFour: string | null }): string {
  return `${k.keyPrefix}…${k.lastFour ?? "????"}`;
}

/** What is stored of a new key for display: its prefix (`prs_live_`) and its last four characters. */
export function displayParts(secret: string): { keyPrefix: string; lastFour: string } {
  const keyPrefix = /^prs_(sandbox|live)_/.exec(secret)?.[0];
  if (!keyPrefix) throw new Error("not an API key");
  return { keyPrefix, lastFour: secret.slice(-4) };
}
