/** What the confirmation page says, shown by the page (server) and after the button (client). */
export const CONFIRM_MESSAGES = {
  confirmed: "Your email address is confirmed.",
  alreadyConfirmed: "Your email address is already confirmed.",
  expired: "This confirmation link has expired. Sign in and send a new one from the developer page.",
  invalid: "This confirmation link is not valid. Use the latest link we mailed you, or send a new one from the developer page.",
} as const;
