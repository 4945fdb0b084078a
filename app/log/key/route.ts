import { api, otherMethods, PUBLIC_CORS } from "@/lib/http/handler";
import { noteKey } from "@/lib/tlog/note";

export const dynamic = "force-dynamic";

/** The log's verifier key (C2SP vkey): `<origin>+<key hash>+<base64(0x01 ‖ Ed25519 public key)>`. */
export const GET = api(async () =>
  new Response(`${noteKey().vkey}\n`, { headers: { "Content-Type": "text/plain; charset=utf-8", "Cache-Control": "public, max-age=300", ...PUBLIC_CORS } }));
export const { POST, PUT, PATCH, DELETE } = otherMethods("GET");
