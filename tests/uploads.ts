import { inject } from "vitest";

/** A small, valid PDF (what a scan of a letter of authority would be, in 200 bytes). */
export const PDF = Buffer.from("%PDF-1.4\n1 0 obj<</Type/Catalog/Pages 2 0 R>>endobj\n2 0 obj<</Type/Pages/Kids[]/Count 0>>endobj\ntrailer<</Root 1 0 R>>\n%%EOF\n");

/** POST /api/v1/files as `curl -F file=@name` sends it. */
export async function upload(key: string | undefined, bytes: Uint8Array, filename: string, type = "application/pdf") {
  const form = new FormData();
  form.append("file", new Blob([new Uint8Array(bytes)], { type }), filename);
  const res = await fetch(`${inject("baseUrl")}/api/v1/files`, { method: "POST", headers: key ? { Authorization: `Bearer ${key}` } : {}, body: form });
  const text = await res.text();
  let body: any;
  try {
    body = JSON.parse(text);
  } catch {
    body = undefined;
  }
  return { status: res.status, body, text };
}
