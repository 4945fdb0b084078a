"use server";

import { revalidatePath } from "next/cache";
import { requireRole } from "@/lib/auth/session";
import { getDb } from "@/lib/db/client";
import { closeReport } from "@/lib/reports/report-problem";
import { guardedAction, errorState } from "@/lib/forms/guarded-action";

/** A reviewer marks a report handled; who and when are kept with it. */
export const closeReportAction = guardedAction(async (form: FormData) => {
  const reviewer = await requireRole(["reviewer", "admin"], "/review/reports");
  await closeReport(await getDb(), reviewer.id, String(form.get("id") ?? "").slice(0, 64));
  revalidatePath("/review/reports");
}, errorState);
