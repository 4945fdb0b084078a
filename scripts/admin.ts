// Operator CLI: `npm run admin -- <noun> <verb> [--flags]`. Prints one JSON object.
// With a server running (its runtime file in DATA_DIR), commands go through it — the
// embedded database allows one process — otherwise the CLI opens the database itself.
//
// Only that second path loads the service (its commands and database client): through a
// running server the CLI is a small HTTP client, so each call starts in a fraction of the time.
import { adminUrl, readRuntimeFile, type Runtime } from "@/lib/admin/runtime-file";
import type { AdminResult } from "@/lib/admin/commands";

const alive = (pid: number) => {
  try {
    process.kill(pid, 0);
    return true;
  } catch (e) {
    return (e as NodeJS.ErrnoException).code === "EPERM";
  }
};

async function viaServer(rt: Runtime, argv: string[]): Promise<AdminResult> {
  const deadline = Date.now() + 30_000;
  for (;;) {
    try {
      const res = await fetch(adminUrl(rt), {
        method: "POST",
        headers: { "Content-Type": "application/json", Authorization: `Bearer ${rt.token}` },
        body: JSON.stringify({ argv }),
        signal: AbortSignal.timeout(10_000),
      });
      const body = await res.json();
      if (!res.ok) throw new Error(`server answered ${res.status}: ${JSON.stringify(body)}`);
      return body as AdminResult;
    } catch (e) {
      // The server may still be starting; give it a moment.
      if (Date.now() > deadline || !alive(rt.pid)) throw e;
      await new Promise((r) => setTimeout(r, 300));
    }
  }
}

async function main() {
  const argv = process.argv.slice(2);
  const rt = readRuntimeFile();
  let result: AdminResult;
  if (rt && alive(rt.pid)) {
    result = await viaServer(rt, argv);
  } else {
    const [{ runAdminCommand }, { closeDb, getDb }] = await Promise.all([import("@/lib/admin/commands"), import("@/lib/db/client")]);
    try {
      result = await runAdminCommand(await getDb(), argv);
    } finally {
      await closeDb();
    }
  }
  if (result.ok) {
    console.log(JSON.stringify(result.result));
  } else {
    console.log(JSON.stringify({ error: result.error }));
    process.exitCode = 1;
  }
}

main().catch((e) => {
  console.error(JSON.stringify({ error: { code: "failed", message: e instanceof Error ? e.message : String(e) } }));
  process.exitCode = 1;
});
