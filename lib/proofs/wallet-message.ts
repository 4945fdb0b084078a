/**
 * The exact text a wallet signs (UTF-8), in the spirit of EIP-4361: who asks, for what,
 * which address and network, a nonce and the validity window. Signing it costs nothing.
 */
export function walletMessage(c: {
  host: string; uri: string; address: string; network: string; claimType: string; nonce: string;
  issuedAt: Date; expiresAt: Date; challengeId: string;
}) {
  return [
    `${c.host} asks you to prove control of this ${c.network} address for Proof Records (PRS):`,
    c.address,
    "",
    `Purpose: ${c.claimType}. Signing proves control of the key behind the address; it costs nothing and grants no permission.`,
    "",
    `URI: ${c.uri}`,
    `Network: ${c.network}`,
    `Challenge ID: ${c.challengeId}`,
    `Nonce: ${c.nonce}`,
    `Issued At: ${c.issuedAt.toISOString()}`,
    `Expiration Time: ${c.expiresAt.toISOString()}`,
  ].join("\n");
}
