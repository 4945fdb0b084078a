import type { ReactNode } from "react";
import { inputClass } from "./portal";

/**
 * The password a mailed link sets (confirming an account, resetting its password): the link's
 * token, the account's email for password managers, and the password with its error.
 */
export function PasswordFields({ token, email, label, fieldError }: { token: string; email: string; label: ReactNode; fieldError?: string }) {
  return (
    <>
      <input type="hidden" name="token" value={token} />
      {/* Lets password managers store the password under the right account. */}
      <input type="email" name="username" autoComplete="username" value={email} readOnly hidden />
      <label className="block text-sm font-medium">
        {label}
        <input className={inputClass} type="password" name="password" autoComplete="new-password" required minLength={10}
          maxLength={200} aria-invalid={Boolean(fieldError)} aria-describedby="password-error" />
      </label>
      {fieldError && <p id="password-error" className="text-sm text-red-700">{fieldError}</p>}
    </>
  );
}
