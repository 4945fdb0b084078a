import { reviewerDocument } from "@/lib/files/reviewer-document";
import { applicationDocument } from "@/lib/organisations/review-verifications";

/** A document of an application, for reviewers and admins only (reviewer-document.ts). */
export const GET = reviewerDocument(applicationDocument);
