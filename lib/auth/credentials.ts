import { z } from "zod";
import { PASSWORD_MAX, PASSWORD_MIN } from "./password";

export const emailSchema = z
  .string({ error: "Enter your email address." })
  .trim()
  .toLowerCase()
  .max(254, "That email address is too long.")
  .pipe(z.email({ error: "Enter a valid email address, like you@example.com." }));

export const passwordSchema = z
  .string({ error: "Enter a password." })
  .min(PASSWORD_MIN, `Use at least ${PASSWORD_MIN} characters for your password.`)
  .max(PASSWORD_MAX, `Use at most ${PASSWORD_MAX} characters for your password.`);

export const signUpSchema = z.object({ email: emailSchema, password: passwordSchema });
/** Sign-in only checks shape; length rules are for new passwords. */
export const signInSchema = z.object({ email: emailSchema, password: z.string().min(1).max(PASSWORD_MAX) });
