import { readBodyBytes } from "@/lib/http/body";
import { ApiError } from "@/lib/http/errors";
import { MAX_FILE_BYTES, tooLarge } from "./store-file";

/** Room for the multipart boundaries and part headers around the file itself. */
const ENVELOPE_BYTES = 64 * 1024;

/**
 * The one `file` part of a multipart/form-data body, read with a hard byte limit (never
 * trusting Content-Length alone): 415 for another media type, 413 `file_too_large` past
 * 10 MiB, 422 `missing_field` without a `file` part.
 */
export async function readUpload(req: Request): Promise<{ filename: string; bytes: Uint8Array }> {
  const type = req.headers.get("content-type") ?? "";
  if (!/^multipart\/form-data\s*;/i.test(type.trim())) {
    throw new ApiError("unsupported_media_type", "Send the file as multipart/form-data with one part named 'file'.");
  }
  const limit = MAX_FILE_BYTES + ENVELOPE_BYTES;
  if (Number(req.headers.get("content-length") ?? "0") > limit) throw tooLarge();
  const body = await readBodyBytes(req, limit, tooLarge);
  let form: FormData;
  try {
    form = await new Response(body, { headers: { "content-type": type } }).formData();
  } catch {
    throw new ApiError("invalid_value", "The multipart/form-data body could not be read.");
  }
  const file = form.get("file");
  if (!file || typeof file === "string") throw new ApiError("missing_field", "Send the document in a multipart part named 'file' (with a filename).", "file");
  return { filename: file.name, bytes: new Uint8Array(await file.arrayBuffer()) };
}
