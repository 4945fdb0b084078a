import { stringify } from "csv-stringify/sync";
import { currentAccount } from "@/lib/auth/session";
import { AUDIT_CSV_COLUMNS, auditCsvRow, listAudit } from "@/lib/audit/staff-audit";
import { getDb } from "@/lib/db/client";
import { ACCOUNT_ID_RE } from "@/lib/ids";

export const dynamic = "force-dynamic";

/** At most this many entries per export (newest first); `before=<seq>` pages further back. */
const EXPORT_MAX = 10_000;

/**
 * GET /admin/audit/export — the staff audit trail as CSV (RFC 4180, UTF-8), for admins only
 * (403 otherwise, 401 without a session). `account=<id>` narrows it to one account,
 * `before=<seq>` continues an export that reached EXPORT_MAX.
 */
export async function GET(req: Request) {
  const staff = await currentAccount();
  if (!staff) return new Response("Sign in as an admin to export the audit trail.\n", { status: 401, headers: { "content-type": "text/plain; charset=utf-8" } });
  if (staff.role !== "admin") return new Response("Only admins can export the audit trail.\n", { status: 403, headers: { "content-type": "text/plain; charset=utf-8" } });
  const url = new URL(req.url);
  const account = url.searchParams.get("account") ?? "";
  const before = Number(url.searchParams.get("before") ?? "");
  const rows = await listAudit(await getDb(), {
    ...(ACCOUNT_ID_RE.test(account) && { accountId: account }),
    ...(Number.isSafeInteger(before) && before > 0 && { beforeSeq: before }),
    limit: EXPORT_MAX,
  });
  const csv = stringify([[...AUDIT_CSV_COLUMNS], ...rows.map(auditCsvRow)], { record_delimiter: "windows" });
  const stamp = new Date().toISOString().slice(0, 19).replace(/[:T]/g, "-");
  return new Response(csv, {
    headers: {
      "content-type": "text/csv; charset=utf-8",
      "content-disposition": `attachment; filename="prs-staff-audit-${stamp}.csv"`,
      "cache-control": "no-store",
    },
  });
}
