import { getDb } from "@/lib/db/client";
import { emailSchema } from "./credentials";
import { authLimits } from "./limits";
import { LOGIN_TOKEN_TTL_SECONDS, type LoginTokenPurpose } from "./login-token";
import { sendLoginLink } from "./send-login-link";
import { log } from "@/lib/log/logger";

export type LinkRequestState = { sent?: string; error?: string; email?: string };

const SENT: Record<LoginTokenPurpose, string> = {
  magic_link: `If an account exists for that address, we sent a sign-in link to it. The link works once, for ${LOGIN_TOKEN_TTL_SECONDS.magic_link / 60} minutes.`,
  password_reset: `If an account exists for that address, we sent a link to set a new password. The link works once, for ${LOGIN_TOKEN_TTL_SECONDS.password_reset / 60} minutes.`,
};

/**
 * The server-action side of "email me a link": rate limits, then the same answer whether or
 * not the address has an account. The lookup, the token and the mail happen in `later`
 * (Next's `after`: once the answer is sent), so neither the answer nor its timing tells
 * whether an account exists.
 */
export async function requestLoginLink(
  ip: string, rawEmail: unknown, purpose: LoginTokenPurpose, later: (task: () => Promise<void>) => void,
): Promise<LinkRequestState> {
  const email = typeof rawEmail === "string" ? rawEmail.slice(0, 300) : "";
  const limits = authLimits();
  const byIp = await limits.mailLink.hit(ip);
  if (!byIp.ok) return { email, error: `Too many requests from your address. Try again in ${byIp.retryAfterSeconds} seconds.` };
  const parsed = emailSchema.safeParse(email);
  if (!parsed.success) return { email, error: parsed.error.issues[0]?.message ?? "Enter a valid email address." };
  const byEmail = await limits.mailLinkEmail.hit(parsed.data);
  if (!byEmail.ok) return { email, error: `Too many links were requested for this address. Try again in ${byEmail.retryAfterSeconds} seconds.` };
  later(async () => {
    try {
      await sendLoginLink(await getDb(), parsed.data, purpose);
    } catch (e) {
      log().error({ err: e, purpose }, `${purpose} mail failed`);
    }
  });
  return { email, sent: SENT[purpose] };
}
