/** Why a password reset link does not work. */
export const RESET_PROBLEMS = {
  used: "This reset link has already been used. Each link works once: ask for a new one.",
  expired: "This reset link has expired (links work for one hour). Ask for a new one.",
  invalid: "This reset link is not valid. Use the latest link we mailed you, or ask for a new one.",
} as const;
