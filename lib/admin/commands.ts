import { recheckNow } from "@/lib/records/recheck-now";
import { recheckOrganisationNow } from "@/lib/organisations/recheck-organisations";
import { eq } from "drizzle-orm";
import { z } from "zod";
import { apiKeys } from "@/drizzle/schema";
import { AccountExists, createAccount } from "@/lib/accounts/create-account";
import { normaliseScopes, SCOPES } from "@/lib/accounts/scopes";
import { ApiKeyRefused, createApiKey } from "@/lib/accounts/create-api-key";
import { confirmEmail, grantRole, revokeApiKey, setLiveExchangeVerification, setPlan } from "@/lib/accounts/manage-account";
import { PLANS, ROLES } from "@/lib/accounts/types";
import type { Db } from "@/lib/db/client";
import { RotationUnavailable, rotateSigningKey } from "@/lib/signing/keys";
import { publishLocalKeys } from "@/lib/signing/published-keys";
import { listReports } from "@/lib/reports/report-problem";
import { sweepWalletProofs } from "./sweep-wallet-proofs";
import { ApiError } from "@/lib/http/errors";
import { isValidLei } from "@/lib/connectors/lei-format";
import { staffAccount, staffAction, type Staff } from "@/lib/staff/staff-action";
import { auditAuthor, listAudit, writeAudit } from "@/lib/audit/staff-audit";
import { notify } from "@/lib/notices/notify";
import { reinstateAccount, suspendAccount } from "@/lib/staff/suspend-account";
import { afterOrganisationChange, removeVerifiedOrganisation, setVerifiedOrganisation } from "@/lib/organisations/set-organisation";

/** Operator commands (CONTRACT, Accounts): the same code behind the CLI and the server's admin endpoint. */
export type AdminResult = { ok: true; result: Record<string, unknown> } | { ok: false; error: { code: string; message: string } };

export class AdminUsage extends Error {}

const USAGE = `usage:
  account create --email E [--plan none|starter|growth] [--role customer|reviewer|admin]
  account confirm-email --account ID
  key create --account ID --env sandbox|live
  key revoke --key KEY_ID
  plan set --account ID --plan none|starter|growth
  role grant --account ID --role reviewer|admin
  live-exchange enable|disable --account ID   (exchange_verified_trade: live exchange API keys)
  signing-key rotate
  wallet-proofs sweep          (lists solana wallet records whose proof fails strict Ed25519; revokes nothing)
  reports list                 (open problems reported from certificates, newest first)
  organisation verify --account ID --legal-name N [--lei L] [--jurisdiction J] [--domains a.com,b.com] [--by ACCOUNT_ID]
                               (records a verification staff decided outside the console)
  organisation remove --account ID [--reason "…"] [--by ACCOUNT_ID]
  organisation recheck --account ID   (brings the LEI register re-check forward to now)
  record suspend|reinstate|revoke --id PRS-… --reason "…" [--by ACCOUNT_ID] [--report RPT_ID]
                               (a staff action on any issued record; the reason is shown on its certificate as
                               "Suspended by Proof Records: …"; --by names the reviewer/admin account acting, for the
                               review audit log; --report closes that problem report with the action)
  record recheck --id PRS-…    (brings the record's re-check forward to now: the next sweep round asks its source
                               again, with the scheduled re-check's rules)
  account suspend|reinstate --account ID --reason "…" [--by ACCOUNT_ID]
                               (takes a whole account down — its live records suspended by staff with the public reason,
                               keys and sign-in refused, webhooks disabled, plan frozen — or lifts it; the owner is told)
  audit list [--account ID] [--limit N]   (the staff audit trail, newest first)`;

function flags(args: string[]): Record<string, string> {
  const out: Record<string, string> = {};
  for (let i = 0; i < args.length; i++) {
    const a = args[i]!;
    if (!a.startsWith("--")) throw new AdminUsage(`unexpected argument '${a}'\n${USAGE}`);
    const [k, inline] = a.slice(2).split("=", 2) as [string, string | undefined];
    const v = inline ?? args[++i];
    if (v === undefined) throw new AdminUsage(`--${k} needs a value\n${USAGE}`);
    out[k] = v;
  }
  return out;
}

const need = (f: Record<string, string>, k: string) => {
  const v = f[k];
  if (!v) throw new AdminUsage(`--${k} is required\n${USAGE}`);
  return v;
};
const oneOf = <T extends string>(v: string, allowed: readonly T[], what: string): T => {
  if (!(allowed as readonly string[]).includes(v)) throw new AdminUsage(`${what} must be one of ${allowed.join(", ")}`);
  return v as T;
};

export async function runAdminCommand(db: Db, argv: string[]): Promise<AdminResult> {
  try {
    return { ok: true, result: await dispatch(db, argv) };
  } catch (e) {
    if (e instanceof AdminUsage) return { ok: false, error: { code: "usage", message: e.message } };
    if (e instanceof AccountExists) return { ok: false, error: { code: "account_exists", message: e.message } };
    if (e instanceof ApiKeyRefused) return { ok: false, error: { code: e.code, message: e.message } };
    if (e instanceof RotationUnavailable) return { ok: false, error: { code: "rotation_unavailable", message: e.message } };
    if (e instanceof ApiError) return { ok: false, error: { code: e.code, message: e.message } };
    throw e;
  }
}

const keyAccount = async (db: Db, keyId: string) =>
  (await db.select({ accountId: apiKeys.accountId }).from(apiKeys).where(eq(apiKeys.id, keyId)))[0]?.accountId ?? null;

/** The operator, or the reviewer/admin account `--by` names (for the audit trail). */
async function actingStaff(db: Db, f: Record<string, string>): Promise<Staff> {
  if (!f.by) return { accountId: null, role: "operator" };
  const named = await staffAccount(db, f.by);
  if (!named) throw new AdminUsage(`--by ${f.by} is not a reviewer or admin account`);
  return named;
}

async function dispatch(db: Db, argv: string[]): Promise<Record<string, unknown>> {
  const [noun, verb, ...rest] = argv;
  const f = flags(rest);
  const notFound = (id: string) => {
    throw new ApiKeyRefused("account_not_found", `No account ${id}.`);
  };
  switch (`${noun} ${verb}`) {
    case "account create": {
      const email = need(f, "email");
      if (!z.email().safeParse(email).success) throw new AdminUsage(`'${email}' is not an email address`);
      const r = await createAccount(db, {
        email, plan: f.plan ? oneOf(f.plan, PLANS, "--plan") : undefined, role: f.role ? oneOf(f.role, ROLES, "--role") : undefined,
        createdBy: "operator", // on the operator's word: its first mailed link revokes nothing (docs/security.md)
      });
      return { account_id: r.accountId, email: r.email, sandbox_key: r.sandboxKey };
    }
    case "account confirm-email": {
      const id = need(f, "account");
      if (!(await confirmEmail(db, id))) notFound(id);
      return { account_id: id, email_confirmed: true };
    }
    case "key create": {
      const scopes = f.scopes === undefined ? null : normaliseScopes(f.scopes.split(",").map((s) => oneOf(s.trim(), SCOPES, "--scopes")));
      const r = await createApiKey(db, need(f, "account"), oneOf(need(f, "env"), ["sandbox", "live"] as const, "--env"), scopes);
      return { key: r.key, key_id: r.keyId, scopes: r.scopes };
    }
    case "key revoke": {
      const id = need(f, "key");
      if (!(await revokeApiKey(db, id))) throw new ApiKeyRefused("account_not_found", `No active key ${id}.`);
      await writeAudit(db, { staffAccountId: null, action: "key.revoke", subjectKind: "api_key", subjectId: id, accountId: await keyAccount(db, id), at: new Date() });
      return { key_id: id, revoked: true };
    }
    case "plan set": {
      const id = need(f, "account");
      const plan = oneOf(need(f, "plan"), PLANS, "--plan");
      if (!(await setPlan(db, id, plan))) notFound(id);
      return { account_id: id, plan };
    }
    case "role grant": {
      const id = need(f, "account");
      const role = oneOf(need(f, "role"), ["reviewer", "admin"] as const, "--role");
      if (!(await grantRole(db, id, role))) notFound(id);
      return { account_id: id, role };
    }
    case "live-exchange enable":
    case "live-exchange disable": {
      const id = need(f, "account");
      const on = verb === "enable";
      if (!(await setLiveExchangeVerification(db, id, on))) notFound(id);
      return { account_id: id, live_exchange_verification: on };
    }
    case "signing-key rotate": {
      const rotated = rotateSigningKey();
      await publishLocalKeys(db); // published for every instance before anyone signs with it
      await writeAudit(db, { staffAccountId: null, action: "signing_key.rotate", subjectKind: "signing_key", subjectId: rotated.kid, accountId: null, at: new Date() });
      return rotated;
    }
    case "wallet-proofs sweep": {
      const weak = await sweepWalletProofs(db);
      return { weak_records: weak, count: weak.length };
    }
    case "reports list": {
      const reports = (await listReports(db)).map((r) => ({
        id: r.id, record_id: r.recordId, message: r.message, contact: r.contact, created_at: r.createdAt.toISOString(),
      }));
      return { reports, count: reports.length };
    }
    case "organisation verify": {
      const accountId = need(f, "account");
      const lei = f.lei ? f.lei.toUpperCase() : null;
      if (lei && !isValidLei(lei)) throw new AdminUsage(`--lei '${f.lei}' is not a valid LEI`);
      const domains = (f.domains ?? "").split(",").map((d) => d.trim().toLowerCase()).filter(Boolean);
      const at = new Date();
      const staff = await actingStaff(db, f);
      await db.transaction(async (tx) => {
        await setVerifiedOrganisation(tx, {
          accountId, legalName: need(f, "legal-name"), lei, jurisdiction: f.jurisdiction ?? null, basis: lei ? "lei_register" : "documents",
          domains, verificationId: null, at,
        });
        await writeAudit(tx, {
          staffAccountId: staff.accountId, action: "organisation.verify", subjectKind: "account", subjectId: accountId, accountId, at,
          after: { legal_name: f["legal-name"], lei, domains },
        });
        await notify(tx, { accountId, kind: "organisation.verified", subjectId: accountId, reason: null, at });
      });
      afterOrganisationChange(accountId);
      return { account_id: accountId, organisation: { legal_name: f["legal-name"], lei, domains, verified_at: at.toISOString() } };
    }
    case "organisation remove": {
      const accountId = need(f, "account");
      const staff = await actingStaff(db, f);
      const removed = await db.transaction(async (tx) => {
        if (!(await removeVerifiedOrganisation(tx, accountId))) return false;
        const at = new Date();
        await writeAudit(tx, { staffAccountId: staff.accountId, action: "organisation.remove", subjectKind: "account", subjectId: accountId, accountId, at, after: { organisation: null } });
        await notify(tx, { accountId, kind: "organisation.removed", subjectId: accountId, reason: f.reason ?? null, at });
        return true;
      });
      if (!removed) notFound(accountId);
      afterOrganisationChange(accountId);
      return { account_id: accountId, organisation: null };
    }
    case "account suspend":
    case "account reinstate": {
      const act = verb === "suspend" ? suspendAccount : reinstateAccount;
      return act(db, await actingStaff(db, f), need(f, "account"), { reason: need(f, "reason") });
    }
    case "audit list": {
      const limit = f.limit ? Number(f.limit) : 100;
      if (!Number.isSafeInteger(limit) || limit < 1 || limit > 10_000) throw new AdminUsage("--limit must be 1 to 10000");
      const entries = (await listAudit(db, { ...(f.account && { accountId: f.account }), limit })).map((e) => ({
        seq: e.seq, at: e.at.toISOString(), staff: auditAuthor(e), action: e.action, subject_kind: e.subjectKind, subject_id: e.subjectId,
        account_id: e.accountId, reason: e.reason, before: e.before, after: e.after,
      }));
      return { entries, count: entries.length };
    }
    case "record suspend":
    case "record reinstate":
    case "record revoke": {
      const staff = await actingStaff(db, f);
      const record = await staffAction(db, staff, need(f, "id"), {
        operation: verb, reason: need(f, "reason"), ...(f.report ? { report_id: f.report } : {}),
      });
      return { record_id: record.verification_id, status: record.status, operation: verb };
    }
    case "organisation recheck":
      return recheckOrganisationNow(db, need(f, "account"));
    case "record recheck":
      return recheckNow(db, need(f, "id"));
    default:
      throw new AdminUsage(USAGE);
  }
}
