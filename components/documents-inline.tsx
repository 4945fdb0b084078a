/** A document a reviewer looks at: where its bytes are served (a sandboxed, reviewers-only route) and what it is. */
export type InlineDocument = { id: string; src: string; filename: string; contentType: string; sizeBytes: number; sha256: string };

/**
 * Documents shown inline in the reviewer console (organisation verifications, reviewed
 * submissions): a PDF in a frame, an image as an image, each with its name, type, size and
 * SHA-256. The bytes come from routes that serve them sandboxed (lib/files/file-response.ts).
 */
export function DocumentsInline({ documents, missing = 0 }: { documents: readonly InlineDocument[]; missing?: number }) {
  return (
    <section>
      <h2 className="text-lg font-semibold">Documents ({documents.length})</h2>
      {missing > 0 && <p className="mt-1 text-sm text-amber-700">{missing} document(s) were deleted (retention passed).</p>}
      {documents.length === 0 && missing === 0 && <p className="mt-1 text-sm text-slate-600">None attached.</p>}
      <ul className="mt-2 space-y-6" data-testid="documents">
        {documents.map((d) => (
          <li key={d.id} data-testid="document" data-file-id={d.id}>
            <p className="text-sm [overflow-wrap:anywhere]">
              <a className="underline" href={d.src} target="_blank" rel="noopener">{d.filename}</a>{" "}
              <span className="text-slate-500">— {d.contentType}, {Math.ceil(d.sizeBytes / 1024)} KiB, SHA-256 <code className="text-xs">{d.sha256}</code></span>
            </p>
            {d.contentType === "application/pdf"
              ? <iframe src={d.src} title={`Document ${d.filename}`} className="mt-2 h-[32rem] w-full rounded border border-slate-300 bg-white" data-testid="document-frame" />
              : <img src={d.src} alt={`Document ${d.filename}`} className="mt-2 max-h-[32rem] max-w-full rounded border border-slate-300" data-testid="document-image" />}
          </li>
        ))}
      </ul>
    </section>
  );
}
