import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { randomBytes, randomUUID } from "node:crypto";
import { afterAll } from "vitest";
import type { AuthContext } from "@/lib/accounts/types";
import type { ClaimModule, ClaimRequestSpec } from "@/lib/claims/types";
import type { Db } from "@/lib/db/client";
import { seedPglite } from "../db-template";
import { useOwnDatabase } from "../own-database";

/** PostgreSQL (DATABASE_URL) rather than PGlite, whose one connection runs concurrent work one statement or transaction at a time. */
export const onPostgres = Boolean(process.env.DATABASE_URL);

export type DataLayerOptions = {
  /** Settings to set (a string) or remove (undefined), before anything under lib/ reads them. */
  env?: Record<string, string | undefined>;
  /**
   * A fresh PostgreSQL database of its own, named after this label, when DATABASE_URL is set
   * (see own-database.ts): for a test the test server's delivery worker or sweeps must not
   * touch. On PGlite the private DATA_DIR already is one.
   */
  ownDatabase?: string;
  /** The DATA_DIR to use, when the test made it to start something in it first; else a fresh temp folder. */
  dir?: string;
  /** The temp folder's name prefix. */
  prefix?: string;
};

/**
 * A claim type only a test registers (registerClaimType), to prove what a type can declare
 * before a shipped one does: test-only docs and a request that takes anything, plus the parts
 * the test declares.
 */
export function testClaimType(type: string, parts: Omit<ClaimModule, "type" | "docs" | "request"> & { request?: Partial<ClaimRequestSpec> }): ClaimModule {
  return {
    type, docs: { describe: "test only", errors: [], example: { summary: "test", value: {} } },
    ...parts, request: { validate: () => null, ...parts.request },
  };
}

/** A test type's links: the record named by `evidence.base`, as role `base_record`. */
export const linksToBase: NonNullable<ClaimRequestSpec["links"]> = {
  of: (input) => (typeof input.evidence?.base === "string" ? [{ role: "base_record", targetId: input.evidence.base }] : []),
};

export const uniqueEmail = (tag = "t") => `${tag}-${randomBytes(4).toString("hex")}@example.test`;

/**
 * The setup of an in-process data-layer test: a private DATA_DIR, the env it asks for, a
 * database of its own if asked, then lib/db/client imported and the database opened; closed
 * and the folder removed after all, after the file's own afterAll hooks (vitest runs them
 * last-registered first). lib/ modules read the env when first used, so a test file imports its own lib/
 * modules only after this has returned (top-level `await import(...)`).
 */
export async function dataLayerTest(opts: DataLayerOptions = {}) {
  const dir = opts.dir ?? fs.mkdtempSync(path.join(os.tmpdir(), opts.prefix ?? "prs-unit-"));
  process.env.DATA_DIR = dir;
  for (const [name, value] of Object.entries(opts.env ?? {})) {
    if (value === undefined) delete process.env[name];
    else process.env[name] = value;
  }
  const own = opts.ownDatabase ? await useOwnDatabase(opts.ownDatabase) : undefined;
  if (!process.env.DATABASE_URL) seedPglite(dir);
  const client = await import("@/lib/db/client");
  const db = await client.getDb();
  afterAll(async () => {
    await client.closeDb();
    await own?.drop();
    fs.rmSync(dir, { recursive: true, force: true });
  });
  return { dir, db, ...builders(db) };
}

/** Small builders for the rows tests keep making; each imports lib/ only when called (the env is set by then). */
function builders(db: Db) {
  /** A customer account and its sandbox key's auth context. */
  async function sandboxCustomer(opts: { tag?: string; confirmed?: boolean } = {}) {
    const { createAccount } = await import("@/lib/accounts/create-account");
    const { authenticateApiKey } = await import("@/lib/accounts/authenticate-api-key");
    const a = await createAccount(db, { email: uniqueEmail(opts.tag), ...(opts.confirmed && { emailConfirmed: true }) });
    return { ...a, auth: await authenticateApiKey(db, `Bearer ${a.sandboxKey}`) };
  }

  /** A confirmed customer account put on the growth plan, and a live key's auth context. */
  async function liveCustomer(opts: { tag?: string } = {}) {
    const { createAccount } = await import("@/lib/accounts/create-account");
    const { createApiKey } = await import("@/lib/accounts/create-api-key");
    const { setPlan } = await import("@/lib/accounts/manage-account");
    const { authenticateApiKey } = await import("@/lib/accounts/authenticate-api-key");
    const a = await createAccount(db, { email: uniqueEmail(opts.tag), emailConfirmed: true });
    await setPlan(db, a.accountId, "growth");
    const { key } = await createApiKey(db, a.accountId, "live");
    return { accountId: a.accountId, auth: await authenticateApiKey(db, `Bearer ${key}`) };
  }

  /** A reviewer as the review functions take one. */
  async function reviewer(tag = "rev") {
    const { createAccount } = await import("@/lib/accounts/create-account");
    return { id: (await createAccount(db, { email: uniqueEmail(tag), role: "reviewer" })).accountId, role: "reviewer" as const };
  }

  /** POST /api/v1/records in process (public unless the body says otherwise): the status and the parsed answer. */
  async function create(auth: AuthContext, body: Record<string, unknown>) {
    const { createRecord } = await import("@/lib/records/create-record");
    const res = await createRecord(db, auth, { visibility: "public", ...body } as never, randomUUID());
    return { status: res.status, body: JSON.parse(res.bodyJson) };
  }

  /** An enabled sandbox webhook endpoint row of the account for a receiver's endpoint, with a fresh secret the receiver checks; its id. */
  async function webhookEndpoint(accountId: string, ep: { url: string; setSecret: (secret: string) => void }) {
    const { webhooks } = await import("@/drizzle/schema");
    const secret = `whsec_${randomBytes(32).toString("base64")}`;
    ep.setSecret(secret);
    const { url } = ep;
    const id = `wh_${randomBytes(10).toString("hex")}`;
    await db.insert(webhooks).values({
      id, accountId, environment: "sandbox", url, events: [], description: null,
      secret, status: "enabled", disabledReason: null, consecutiveFailures: 0, createdAt: new Date(), deletedAt: null,
    });
    return id;
  }

  /** A sandbox record.issued event in the outbox, as an issue writes it; its id. */
  async function raiseEvent(accountId: string, data: Record<string, unknown>, at = new Date()) {
    const { events } = await import("@/drizzle/schema");
    const { buildEvent } = await import("@/lib/outbox/write-event");
    const e = buildEvent({ accountId, environment: "sandbox", type: "record.issued", data, at });
    await db.insert(events).values(e);
    return e.id;
  }

  /** How `authenticateApiKey` answers a key: the account id, or the error code. */
  async function keyAnswer(key: string): Promise<string> {
    const { authenticateApiKey } = await import("@/lib/accounts/authenticate-api-key");
    const { ApiError } = await import("@/lib/http/errors");
    try {
      return (await authenticateApiKey(db, `Bearer ${key}`)).accountId;
    } catch (e) {
      if (e instanceof ApiError) return e.code;
      throw e;
    }
  }

  return { sandboxCustomer, liveCustomer, reviewer, create, webhookEndpoint, raiseEvent, keyAnswer };
}
