import { timingSafeEqual } from "node:crypto";
import { g } from "@/lib/admin/runtime-file";
import { runAdminCommand } from "@/lib/admin/commands";
import { getDb } from "@/lib/db/client";
import { KiB, readJsonObject } from "@/lib/http/body";
import { api, json } from "@/lib/http/handler";
import { ApiError } from "@/lib/http/errors";
import { z } from "zod";
import { parseOrThrow } from "@/lib/http/validation";

/**
 * The admin CLI's way in while the server holds the database. Served only through the
 * internal loopback listener (scripts/serve.mjs marks its requests; the public listener strips
 * the mark), and only a caller that can read the server's runtime file (mode 0600 in
 * DATA_DIR) knows the token. Under `next dev` there is no internal listener and no mark.
 */
export const POST = api(async ({ req }) => {
  const mark = process.env.PRS_INTERNAL_MARK;
  if (mark && !same(req.headers.get("x-prs-internal-listener") ?? "", mark)) throw new ApiError("not_found", "Not found.");
  const token = g.__prsRuntime?.token;
  const given = /^Bearer (\S+)$/.exec(req.headers.get("authorization") ?? "")?.[1] ?? "";
  if (!token || !same(given, token)) {
    throw new ApiError("not_found", "Not found.");
  }
  const { argv } = parseOrThrow(z.strictObject({ argv: z.array(z.string().max(500)).max(20) }), await readJsonObject(req, 16 * KiB));
  return json(await runAdminCommand(await getDb(), argv));
});

const same = (a: string, b: string) => a.length === b.length && timingSafeEqual(Buffer.from(a), Buffer.from(b));
