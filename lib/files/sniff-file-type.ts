/** The document types a reviewer is shown (CONTRACT "Documents"), decided by content, never by name or declared type. */
export type DocumentType = "application/pdf" | "image/png" | "image/jpeg";

const PDF = [0x25, 0x50, 0x44, 0x46, 0x2d]; // %PDF-
const PNG = [0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a];
const JPEG = [0xff, 0xd8, 0xff];

const startsWith = (bytes: Uint8Array, sig: number[]) => bytes.length >= sig.length && sig.every((b, i) => bytes[i] === b);

/** The type the bytes are (their magic number), or null when they are none of PDF, PNG, JPEG. */
export function sniffFileType(bytes: Uint8Array): DocumentType | null {
  if (startsWith(bytes, PDF)) return "application/pdf";
  if (startsWith(bytes, PNG)) return "image/png";
  if (startsWith(bytes, JPEG)) return "image/jpeg";
  return null;
}
