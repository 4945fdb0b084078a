import QRCode from "qrcode";
import { getDb } from "@/lib/db/client";
import { api } from "@/lib/http/handler";
import { param } from "@/lib/http/handler";
import { getPublicRecord, publicRecordNotFound } from "@/lib/records/get-record";
import { recordUrls } from "@/lib/records/urls";

/** QR code of the certificate URL: SVG by default, `?format=png` for PNG. */
export const GET = api(async (ctx) => {
  const id = param(ctx, "id");
  const row = await getPublicRecord(await getDb(), id);
  if (!row) throw publicRecordNotFound(id);
  const url = recordUrls(row.id).certificate_url;
  const headers: Record<string, string> = { "Cache-Control": "public, max-age=86400" };
  if (row.environment === "sandbox" || row.visibility === "private") headers["X-Robots-Tag"] = "noindex";
  if (new URL(ctx.req.url).searchParams.get("format") === "png") {
    const png = await QRCode.toBuffer(url, { type: "png", errorCorrectionLevel: "M", margin: 2, width: 512 });
    return new Response(new Uint8Array(png), { headers: { ...headers, "Content-Type": "image/png" } });
  }
  const svg = await QRCode.toString(url, { type: "svg", errorCorrectionLevel: "M", margin: 2 });
  return new Response(svg, { headers: { ...headers, "Content-Type": "image/svg+xml" } });
});
