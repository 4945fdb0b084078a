/** Liveness: the process answers. Deliberately trivial — it is the benchmark's baseline. */
export const dynamic = "force-dynamic";

export function GET() {
  return Response.json({ status: "ok" });
}
