import { NextResponse, type NextRequest } from "next/server";
import { getEnv } from "@/lib/env";
import { limitAnonymous } from "@/lib/http/anonymous-limits";
import { newNonce, securityHeaders } from "@/lib/http/security-headers";

/**
 * Before every request Next routes (no matcher: pages, API routes, static files, Next's
 * own 404 and 405 answers): a fresh nonce, handed to Next in the request's
 * Content-Security-Policy header — Next reads the nonce from there and puts it on its own
 * scripts — and the security headers on the answer. Nonced pages must render per request:
 * the root layout makes every page dynamic.
 */
export async function proxy(request: NextRequest) {
  const env = getEnv();
  const headers = securityHeaders({
    nonce: newNonce(),
    pathname: request.nextUrl.pathname,
    https: env.publicBaseUrl.startsWith("https:"),
    dev: env.NODE_ENV === "development",
  });
  // Anonymous pages and endpoints count against their class's allowance per client address
  // (lib/http/anonymous-limits.ts): here, so pages answer a real 429 too.
  const limited = await limitAnonymous(request, request.nextUrl.pathname);
  if (limited?.refused) {
    for (const [name, value] of Object.entries(headers)) limited.refused.headers.set(name, value);
    return limited.refused;
  }
  const forwarded = new Headers(request.headers);
  forwarded.set("Content-Security-Policy", headers["Content-Security-Policy"]!);
  const res = NextResponse.next({ request: { headers: forwarded } });
  for (const [name, value] of Object.entries(headers)) res.headers.set(name, value);
  for (const [name, value] of Object.entries(limited?.headers ?? {})) res.headers.set(name, value);
  return res;
}
