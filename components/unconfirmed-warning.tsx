import { Alert } from "./portal";

/**
 * On the pages a mailed sign-in or reset link opens, for an account whose address is not yet
 * confirmed: using the link confirms it and revokes what was made before
 * (lib/auth/redeem-login-link.ts), which the person should know before pressing.
 */
export function UnconfirmedWarning({ createdBy }: { createdBy: "signup" | "operator" }) {
  // An operator-made account keeps what it has (lib/auth/redeem-login-link.ts): nothing to warn of.
  if (createdBy === "operator") return null;
  return (
    <Alert kind="info" id="unconfirmed-warning">
      This account&apos;s address was not confirmed yet. Using this link confirms it and, in case someone else signed up with
      your address, revokes everything made in the account before: its password and sessions, API keys, mandate keys and
      webhook destinations. If you created the account yourself and want to keep them, use the confirmation link from the
      sign-up mail instead.
    </Alert>
  );
}
