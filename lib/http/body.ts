import { ApiError } from "./errors";
import { checkJsonInput } from "./json-guard";
import { invalidJsonMessage } from "./json-syntax-error";

export const KiB = 1024;

/**
 * Read a JSON object body with a hard byte limit, never trusting Content-Length alone.
 * Malformed JSON → 400 invalid_json naming the line and column; anything but an object → 422 invalid_type; NUL, lone
 * surrogates, `__proto__` keys and deep nesting anywhere in it → 422 (checkJsonInput).
 */
export async function readJsonObject(req: Request, limitBytes: number): Promise<Record<string, unknown>> {
  const type = req.headers.get("content-type") ?? "";
  if (!/^application\/(.+\+)?json\b/i.test(type.trim())) {
    throw new ApiError("unsupported_media_type", "Send the body as JSON with 'Content-Type: application/json'.");
  }
  const declared = Number(req.headers.get("content-length") ?? "0");
  if (declared > limitBytes) throw tooLarge(limitBytes);
  const text = await readLimited(req, limitBytes);
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch {
    throw new ApiError("invalid_json", invalidJsonMessage(text));
  }
  if (parsed === null || typeof parsed !== "object" || Array.isArray(parsed)) {
    throw new ApiError("invalid_type", "The request body must be a JSON object.");
  }
  const bad = checkJsonInput(parsed);
  if (bad) throw ApiError.fromField(bad);
  return parsed as Record<string, unknown>;
}

function tooLarge(limit: number) {
  const size = limit >= KiB * KiB ? `${limit / (KiB * KiB)} MiB` : `${Math.round(limit / KiB)} KiB`;
  return new ApiError("body_too_large", `The request body exceeds ${size}.`);
}

/**
 * The body's bytes, read with a hard limit whatever Content-Length said: past `limit` bytes the
 * stream is cancelled and `tooBig()` thrown (the JSON body's 413 here, the upload's in read-upload.ts).
 */
export async function readBodyBytes(req: Request, limit: number, tooBig: () => Error): Promise<Buffer<ArrayBuffer>> {
  if (!req.body) return Buffer.alloc(0);
  const reader = req.body.getReader();
  const chunks: Uint8Array[] = [];
  let total = 0;
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    total += value.byteLength;
    if (total > limit) {
      await reader.cancel().catch(() => {});
      throw tooBig();
    }
    chunks.push(value);
  }
  return Buffer.concat(chunks);
}

async function readLimited(req: Request, limit: number): Promise<string> {
  const bytes = await readBodyBytes(req, limit, () => tooLarge(limit));
  try {
    return new TextDecoder("utf-8", { fatal: true }).decode(bytes);
  } catch {
    throw new ApiError("invalid_json", "The request body is not valid UTF-8.");
  }
}
