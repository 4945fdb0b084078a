export default function NotFound() {
  return (
    <main className="mx-auto max-w-3xl px-6 py-16">
      <h1 className="text-2xl font-semibold">Not found</h1>
      <p className="mt-2 text-slate-700">There is no issued record at this address.</p>
    </main>
  );
}
