import Link from "next/link";

export default function Home() {
  return (
    <main className="mx-auto max-w-3xl px-6 py-16">
      <h1 className="text-3xl font-semibold">Proof Records</h1>
      <p className="mt-4 text-slate-700">
        Signed, verifiable records about a subject: who issued them, what was checked, and how far. Every record has a
        public certificate, a QR code and an Ed25519-signed status anyone can check.
      </p>
      <p className="mt-6 flex gap-3">
        <Link className="rounded bg-slate-900 px-4 py-2 text-sm font-medium text-white hover:bg-slate-700" href="/signup">Sign up</Link>
        <Link className="rounded border border-slate-300 bg-white px-4 py-2 text-sm hover:bg-slate-100" href="/developers">Developer portal</Link>
      </p>
      <ul className="mt-8 list-disc space-y-2 pl-6 text-slate-700">
        <li>
          API: <code>/api/v1</code> — described by <Link className="underline" href="/api/v1/openapi.json">openapi.json</Link>
        </li>
        <li>
          Published signing keys: <Link className="underline" href="/.well-known/jwks.json">/.well-known/jwks.json</Link>
        </li>
      </ul>
    </main>
  );
}
