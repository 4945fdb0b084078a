import type { NextAuthOptions } from "next-auth";
import CredentialsProvider from "next-auth/providers/credentials";
import { getDb } from "@/lib/db/client";
import { getEnv } from "@/lib/env";
import { clientAddress } from "@/lib/http/rate-limit";
import { signInSchema } from "./credentials";
import { authLimits } from "./limits";
import { log } from "@/lib/log/logger";
import { checkPassword } from "./password";
import { redeemMagicLink } from "./redeem-login-link";
import { getAuthSecret } from "./secret";
import { isSessionEnded, newSessionId, revokeSession, SESSION_MAX_AGE_SECONDS } from "./session-revocation";
import { findAccountByEmail } from "./signup";
import { upgradePasswordHash } from "./store-password";

/** Error codes the sign-in pages turn into messages (next-auth passes a thrown message through). */
export const SIGNIN_ERRORS = {
  rateLimited: "rate_limited",
  invalid: "invalid_credentials",
  linkInvalid: "link_invalid",
  linkUsed: "link_used",
  linkExpired: "link_expired",
  suspended: "account_suspended",
} as const;

type SessionUser = { id: string; email: string; epoch: number };
const sessionUser = (a: { id: string; email: string; sessionEpoch: number }): SessionUser =>
  ({ id: a.id, email: a.email, epoch: a.sessionEpoch });

/** Thrown by the jwt callback for a session that ended: next-auth then answers "no session" and clears the cookie. */
class SessionEnded extends Error {
  override name = "SessionEnded";
}

/**
 * A correct password checked against a hash of an older cost: store the fresh hash now.
 * A failure costs nothing but the upgrade (tried again at the next sign-in).
 */
async function storeUpgradedHash(db: Awaited<ReturnType<typeof getDb>>, accountId: string, from: string, to: string) {
  try {
    await upgradePasswordHash(db, accountId, from, to);
  } catch (e) {
    log().error({ err: e }, "storing the upgraded password hash failed");
  }
}

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
    session: { strategy: "jwt", maxAge: SESSION_MAX_AGE_SECONDS },
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
          // Per email *and* address: guesses at one account are bounded from each client, and
          // nobody elsewhere can spend the owner's allowance (lock them out of their password).
          if (!(await limits.signInEmail.hit(`${parsed.data.email}|${ip}`)).ok) throw new Error(SIGNIN_ERRORS.rateLimited);
          const db = await getDb();
          const account = await findAccountByEmail(db, parsed.data.email);
          const check = await checkPassword(parsed.data.password, account?.passwordHash);
          if (!account || !check.ok) return null;
          if (account.suspendedAt) throw new Error(SIGNIN_ERRORS.suspended);
          if (check.upgradedHash) await storeUpgradedHash(db, account.id, account.passwordHash!, check.upgradedHash);
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
          if (r.ok && r.account.suspendedAt) throw new Error(SIGNIN_ERRORS.suspended);
          if (r.ok) return sessionUser(r.account);
          throw new Error(r.reason === "used" ? SIGNIN_ERRORS.linkUsed : r.reason === "expired" ? SIGNIN_ERRORS.linkExpired : SIGNIN_ERRORS.linkInvalid);
        },
      }),
    ],
    callbacks: {
      /**
       * At sign-in the session gets its id (`sid`) and the account's session epoch. Every
       * later read of the session (getServerSession, /api/auth/session) first asks the
       * database whether it still counts: a copy of a signed-out cookie, or a session from
       * before a password change or "sign out everywhere", is no session.
       */
      async jwt({ token, user }) {
        if (user) {
          token.sub = user.id;
          token.epoch = (user as unknown as SessionUser).epoch;
          token.sid = newSessionId();
          return token;
        }
        if (await isSessionEnded(await getDb(), { sid: token.sid, accountId: token.sub, epoch: token.epoch })) throw new SessionEnded();
        return token;
      },
      session({ session, token }) {
        return { ...session, accountId: token.sub, epoch: token.epoch } as typeof session;
      },
    },
    events: {
      /** After next-auth checked the sign-out's CSRF token; the cookie is cleared either way. */
      async signOut({ token }) {
        if (typeof token?.sid === "string") await revokeSession(await getDb(), token.sid);
      },
    },
    logger: {
      error(code, metadata) {
        // A signed-out cookie presented again is expected (and anyone can send one): not an error.
        if (code === "JWT_SESSION_ERROR" && metadata instanceof Error && metadata.name === "SessionEnded") return;
        log().error({ err: metadata, code }, `next-auth error ${code}`);
      },
      warn(code) {
        log().warn({ code }, `next-auth warning ${code}`);
      },
      debug() {},
    },
  };
  return cached;
}
