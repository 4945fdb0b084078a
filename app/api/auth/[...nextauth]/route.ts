import NextAuth from "next-auth";
import { getAuthOptions } from "@/lib/auth/options";

// Options are resolved per call (cached after the first) so the build never needs a secret.
type Ctx = { params: Promise<{ nextauth: string[] }> };
const handler = (req: Request, ctx: Ctx) => NextAuth(req as never, ctx as never, getAuthOptions());

export { handler as GET, handler as POST };
