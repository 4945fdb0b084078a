/** Why a sign-in link does not work, shown on the page it opens (server) and after "Sign in" (client). */
export const LINK_PROBLEMS = {
  used: "This sign-in link has already been used. Each link works once: ask for a new one on the sign-in page.",
  expired: "This sign-in link has expired (links work for 15 minutes). Ask for a new one on the sign-in page.",
  invalid: "This sign-in link is not valid. Use the latest link we mailed you, or ask for a new one on the sign-in page.",
} as const;

/** What a suspended account's owner reads at sign-in (lib/auth/options.ts throws it only after the password or link was proven). */
export const SUSPENDED_SIGNIN_MESSAGE =
  "This account is suspended by Proof Records staff: signing in is refused until it is reinstated. The mail we sent you says why and how to contest it.";
