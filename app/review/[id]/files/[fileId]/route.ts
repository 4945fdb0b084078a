import { currentAccount } from "@/lib/auth/session";
import { getDb } from "@/lib/db/client";
import { fileResponse } from "@/lib/files/file-response";
import { readFileBytes } from "@/lib/files/get-file";
import { submissionDocuments } from "@/lib/records/check-claim";
import { getSubmission } from "@/lib/reviews/review-queue";

type Ctx = { params: Promise<{ id: string; fileId: string }> };

const none = () => new Response("Not found.\n", { status: 404, headers: { "Content-Type": "text/plain; charset=utf-8", "Cache-Control": "no-store" } });

/** A document a submission came with, inline, for reviewers and admins only (anyone else: 404, as if there were none). */
export async function GET(_req: Request, { params }: Ctx) {
  const { id, fileId } = await params;
  const account = await currentAccount();
  if (!account || (account.role !== "reviewer" && account.role !== "admin")) return none();
  const db = await getDb();
  const s = await getSubmission(db, id);
  if (!s || !submissionDocuments(s.row.evidencePrivate).some((d) => d.id === fileId)) return none();
  const file = await readFileBytes(db, fileId, s.row.accountId);
  return file ? fileResponse(file) : none();
}
