import {
  AUTH_CODES, BODY_CODES, bearer, errorResponses, jsonResponse, OTHER_METHODS, ref, VALIDATION_CODES, type Paths,
} from "../shared";

/** Step one of the domain and wallet proofs: a challenge to publish or sign. */
export function challengePaths(): Paths {
  return {
    "/api/v1/domain-challenges": {
      post: {
        operationId: "createDomainChallenge",
        tags: ["Challenges"],
        summary: "Request a domain challenge",
        description:
          "Step one of a domain_ownership record. The domain is normalised (trimmed, lower case, trailing dot dropped, IDN " +
          "to punycode); it must be a bare name (no scheme, path, port or userinfo) under an ICANN public suffix, else 422 " +
          "`invalid_domain` (`localhost`, `com`, `co.uk`, IP addresses, `.local`). Publish `txt_value` as a TXT record at " +
          "`txt_name` (`_prs-challenge.<domain>`, value `prs-verification=<token>`) at your DNS provider, then create the " +
          "record with `evidence.challenge_id` = `id` and `subject` = the domain. The challenge belongs to the key's account " +
          "and environment, lives one hour and is used once. Body at most 16 KiB.",
        security: bearer,
        requestBody: { required: true, content: { "application/json": { schema: ref("DomainChallengeCreate") } } },
        responses: {
          "201": jsonResponse("The challenge and the TXT record to publish.", ref("DomainChallenge")),
          ...errorResponses([...BODY_CODES, ...AUTH_CODES, ...VALIDATION_CODES, "invalid_domain", ...OTHER_METHODS]),
        },
      },
    },
    "/api/v1/wallet-challenges": {
      post: {
        operationId: "createWalletChallenge",
        tags: ["Challenges"],
        summary: "Request a wallet challenge",
        description:
          "Step one of a wallet_ownership record. Networks: ethereum, base, polygon, arbitrum, optimism, bsc (EVM: EIP-55 " +
          "checksum if mixed case; answered checksummed), bitcoin (mainnet 1…, 3… and bc1q… addresses; taproot bc1p… is " +
          "422 `unsupported_address_type`) and solana (base58 32-byte key). A bad address is 422 `invalid_address`. Sign " +
          "`message` exactly as returned (UTF-8) with the key behind the address — EVM personal_sign (EIP-191; smart " +
          "accounts via EIP-1271/6492 where the service has an RPC for the network), bitcoin BIP-137 or BIP-322 simple, " +
          "solana signMessage (ed25519) — then create the record with `evidence: {challenge_id, signature}` and `subject` = " +
          "the address. The challenge belongs to the key's account and environment, lives one hour and is used once. " +
          "`claim_type` defaults to wallet_ownership; a dex_control record needs a challenge asked with claim_type dex_control. Body at " +
          "most 16 KiB.",
        security: bearer,
        requestBody: { required: true, content: { "application/json": { schema: ref("WalletChallengeCreate") } } },
        responses: {
          "201": jsonResponse("The challenge and the message to sign.", ref("WalletChallenge")),
          ...errorResponses([
            ...BODY_CODES, ...AUTH_CODES, ...VALIDATION_CODES, "invalid_address", "unsupported_address_type", ...OTHER_METHODS,
          ]),
        },
      },
    },
  };
}
