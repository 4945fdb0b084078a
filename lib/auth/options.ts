import type { NextAuthOptions } from "next-auth";
import CredentialsProvider from "next-auth/providers/credentials";
import { getDb } from "@/lib/db/client";
import { getEnv } from "@/lib/env";
import { clientAddress } from "@/lib/http/rate-limit";
import { signInSchema } from "./credentials";
import { authLimits } from "./limits";
import { verifyPassword } from "./password";
import { getAuthSecret } from "./secret";
import { findAccountByEmail } from "./signup";

/** Error codes the sign-in form turns into messages (next-auth passes a thrown message through). */
export const SIGNIN_ERRORS = { rateLimited: "rate_limited", invalid: "invalid_credentials" } as const;

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
          if (!limits.signIn.hit(ip).ok) throw new Error(SIGNIN_ERRORS.rateLimited);
          const parsed = signInSchema.safeParse({ email: credentials?.email, password: credentials?.password });
          if (!parsed.success) return null;
          if (!limits.signInEmail.hit(parsed.data.email).ok) throw new Error(SIGNIN_ERRORS.rateLimited);
          const account = await findAccountByEmail(await getDb(), parsed.data.email);
          const ok = await verifyPassword(parsed.data.password, account?.passwordHash);
          if (!account || !ok) return null;
          return { id: account.id, email: account.email };
        },
      }),
    ],
    callbacks: {
      jwt({ token, user }) {
        if (user) token.sub = user.id;
        return token;
      },
      session({ session, token }) {
        return { ...session, accountId: token.sub } as typeof session;
      },
    },
  };
  return cached;
}
