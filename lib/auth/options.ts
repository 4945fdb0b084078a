import type { NextAuthOptions } from "next-auth";
import CredentialsProvider from "next-auth/providers/credentials";
import { getDb } from "@/lib/db/client";
import { getEnv } from "@/lib/env";
import { clientAddress } from "@/lib/http/rate-limit";
import { signInSchema } from "./credentials";
import { authLimits } from "./limits";
import { passwordVersion, verifyPassword } from "./password";
import { redeemMagicLink } from "./redeem-login-link";
import { getAuthSecret } from "./secret";
import { findAccountByEmail } from "./signup";

/** Error codes the sign-in pages turn into messages (next-auth passes a thrown message through). */
export const SIGNIN_ERRORS = {
  rateLimited: "rate_limited",
  invalid: "invalid_credentials",
  linkInvalid: "link_invalid",
  linkUsed: "link_used",
  linkExpired: "link_expired",
} as const;

type SessionUser = { id: string; email: string; pv: string };
const sessionUser = (a: { id: string; email: string; passwordHash: string | null }): SessionUser =>
  ({ id: a.id, email: a.email, pv: passwordVersion(a.passwordHash) });

let cached: NextAuthOptions | undefined;

/** Built on first use, so `next build` never reads run-time settings or creates a secret. */
export function getAuthOptions(): NextAuthOptions {
  if (cached) return cached;
  const env = getEnv();
  // next-auth reads its base URL from the environment; ours is PUBLIC_BASE_URL.
  process.env.NEXTAUTH_URL = env.publicBaseUrl;
  cached = {
    secret: getAuthSecret(),
    // The session cookie is httpOnly and SameSite=Lax; next-auth marks it Secure (and uses
    // the __Secure- prefix) whenever the public URL is https, i.e. in production.
    useSecureCookies: env.publicBaseUrl.startsWith("https://"),
    session: { strategy: "jwt", maxAge: 7 * 24 * 3600 },
    pages: { signIn: "/signin", error: "/signin" },
    providers: [
      CredentialsProvider({
        name: "Email and password",
        credentials: { email: { label: "Email", type: "email" }, password: { label: "Password", type: "password" } },
        async authorize(credentials, req) {
          const limits = authLimits();
          const ip = clientAddress((req?.headers ?? {}) as Record<string, string>);
          if (!(await limits.signIn.hit(ip)).ok) throw new Error(SIGNIN_ERRORS.rateLimited);
          const parsed = signInSchema.safeParse({ email: credentials?.email, password: credentials?.password });
          if (!parsed.success) return null;
          if (!(await limits.signInEmail.hit(parsed.data.email)).ok) throw new Error(SIGNIN_ERRORS.rateLimited);
          const account = await findAccountByEmail(await getDb(), parsed.data.email);
          const ok = await verifyPassword(parsed.data.password, account?.passwordHash);
          if (!account || !ok) return null;
          return sessionUser(account);
        },
      }),
      // A mailed single-use link (lib/auth/login-token.ts). Not next-auth's EmailProvider,
      // which needs a database adapter and session table; sessions stay JWTs.
      CredentialsProvider({
        id: "magic-link",
        name: "Email link",
        credentials: { token: { label: "Token", type: "text" } },
        async authorize(credentials, req) {
          const ip = clientAddress((req?.headers ?? {}) as Record<string, string>);
          if (!(await authLimits().signIn.hit(ip)).ok) throw new Error(SIGNIN_ERRORS.rateLimited);
          const r = await redeemMagicLink(await getDb(), credentials?.token);
          if (r.ok) return sessionUser(r.account);
          throw new Error(r.reason === "used" ? SIGNIN_ERRORS.linkUsed : r.reason === "expired" ? SIGNIN_ERRORS.linkExpired : SIGNIN_ERRORS.linkInvalid);
        },
      }),
    ],
    callbacks: {
      jwt({ token, user }) {
        if (user) {
          token.sub = user.id;
          token.pv = (user as unknown as SessionUser).pv;
        }
        return token;
      },
      session({ session, token }) {
        return { ...session, accountId: token.sub, pv: token.pv } as typeof session;
      },
    },
  };
  return cached;
}
