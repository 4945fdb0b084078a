import { reviewerDocument } from "@/lib/files/reviewer-document";
import { submissionDocuments } from "@/lib/records/check-claim";
import { getSubmission } from "@/lib/reviews/review-queue";

/** A document a submission came with, for reviewers and admins only (reviewer-document.ts). */
export const GET = reviewerDocument(async (db, id, fileId) => {
  const s = await getSubmission(db, id);
  return s && submissionDocuments(s.row.evidencePrivate).some((d) => d.id === fileId) ? s.row.accountId : null;
});
