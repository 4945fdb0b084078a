import QRCode from "qrcode";
import { sharedLru } from "@/lib/cache/lru";
import { getDb } from "@/lib/db/client";
import { api } from "@/lib/http/handler";
import { param } from "@/lib/http/handler";
import { getPublicRecord, publicRecordNotFound } from "@/lib/record-model/get-record";
import { recordUrls } from "@/lib/record-model/urls";

/** Rendered images by format and certificate URL: a record's QR never changes (it encodes only the URL of its id). */
const rendered = sharedLru<string, Uint8Array | string>("qr", 2000);

/**
 * QR code of the certificate URL: SVG by default, `?format=png` for PNG. Immutable for a record
 * id (public, a year, `immutable`) and rendered once per process (a bounded LRU).
 */
export const GET = api(async (ctx) => {
  const id = param(ctx, "id");
  const row = await getPublicRecord(await getDb(), id);
  if (!row) throw publicRecordNotFound(id);
  const url = recordUrls(row.id).certificate_url;
  const headers: Record<string, string> = { "Cache-Control": "public, max-age=31536000, immutable" };
  if (row.environment === "sandbox" || row.visibility === "private") headers["X-Robots-Tag"] = "noindex";
  if (new URL(ctx.req.url).searchParams.get("format") === "png") {
    let png = rendered.get(`png ${url}`) as Uint8Array | undefined;
    if (!png) {
      png = new Uint8Array(await QRCode.toBuffer(url, { type: "png", errorCorrectionLevel: "M", margin: 2, width: 512 }));
      rendered.set(`png ${url}`, png);
    }
    return new Response(png as Uint8Array<ArrayBuffer>, { headers: { ...headers, "Content-Type": "image/png" } });
  }
  let svg = rendered.get(`svg ${url}`) as string | undefined;
  if (!svg) {
    svg = await QRCode.toString(url, { type: "svg", errorCorrectionLevel: "M", margin: 2 });
    rendered.set(`svg ${url}`, svg);
  }
  return new Response(svg, { headers: { ...headers, "Content-Type": "image/svg+xml" } });
});
