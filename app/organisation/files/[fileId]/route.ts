import { currentAccount } from "@/lib/auth/session";
import { getDb } from "@/lib/db/client";
import { fileResponse } from "@/lib/files/file-response";
import { readFileBytes } from "@/lib/files/get-file";

type Ctx = { params: Promise<{ fileId: string }> };

/** One of the signed-in account's own documents, inline; anyone else's (or no session) is 404. */
export async function GET(_req: Request, { params }: Ctx) {
  const { fileId } = await params;
  const account = await currentAccount();
  const file = account ? await readFileBytes(await getDb(), fileId, account.id) : null;
  if (!file) return new Response("Not found.\n", { status: 404, headers: { "Content-Type": "text/plain; charset=utf-8", "Cache-Control": "no-store" } });
  return fileResponse(file);
}
