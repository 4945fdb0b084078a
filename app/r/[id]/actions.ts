"use server";

import { headers } from "next/headers";
import { getDb } from "@/lib/db/client";
import { clientAddress } from "@/lib/http/rate-limit";
import { RECORD_ID_RE } from "@/lib/ids";
import { reportProblem } from "@/lib/reports/report-problem";
import { guardedAction, errorState } from "@/lib/forms/guarded-action";

export type ReportState = { sent?: boolean; error?: string; field?: "message" | "contact"; values?: { message: string; contact: string } };

/** Anyone may report a problem with a certificate; it reaches the reviewers' console (lib/reports/). */
export const reportAction = guardedAction(async (_prev: ReportState, form: FormData): Promise<ReportState> => {
  const recordId = String(form.get("record_id") ?? "");
  const values = { message: String(form.get("message") ?? "").slice(0, 4000), contact: String(form.get("contact") ?? "").slice(0, 300) };
  if (!RECORD_ID_RE.test(recordId)) return { error: "This record id is not valid.", values };
  const answer = await reportProblem(await getDb(), recordId, values, clientAddress(await headers()));
  if (answer.ok) return { sent: true };
  return { error: answer.message, field: answer.field, values };
}, errorState);
