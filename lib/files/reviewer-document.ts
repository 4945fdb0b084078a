import { currentAccount } from "@/lib/auth/session";
import { getDb, type Db } from "@/lib/db/client";
import { fileResponse } from "./file-response";
import { readFileBytes } from "./get-file";

type Ctx = { params: Promise<{ id: string; fileId: string }> };

const none = () => new Response("Not found.\n", { status: 404, headers: { "Content-Type": "text/plain; charset=utf-8", "Cache-Control": "no-store" } });

/**
 * The GET handler of a document reviewers look at (a submission's, an application's), inline,
 * for reviewers and admins only; anyone else gets 404, as if there were none. `ownerOf` names
 * the account the document `fileId` belongs to when it is one of `id`'s documents, else null (404).
 */
export function reviewerDocument(ownerOf: (db: Db, id: string, fileId: string) => Promise<string | null>) {
  return async function GET(_req: Request, { params }: Ctx) {
    const { id, fileId } = await params;
    const account = await currentAccount();
    if (!account || (account.role !== "reviewer" && account.role !== "admin")) return none();
    const db = await getDb();
    const owner = await ownerOf(db, id, fileId);
    const file = owner ? await readFileBytes(db, fileId, owner) : null;
    return file ? fileResponse(file) : none();
  };
}
