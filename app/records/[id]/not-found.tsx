import Link from "next/link";

export default function RecordNotFound() {
  return (
    <main className="mx-auto max-w-3xl px-6 py-16">
      <h1 className="text-2xl font-semibold">Not found</h1>
      <p className="mt-2 text-slate-700" data-testid="record-not-found">There is no record with this id in your account.</p>
      <p className="mt-4 text-sm"><Link className="underline" href="/records">Back to your records</Link></p>
    </main>
  );
}
