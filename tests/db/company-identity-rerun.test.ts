import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { randomUUID } from "node:crypto";
import { afterAll, describe, expect, it } from "vitest";
import { randomLei, setLeiRecord, startLeiRegister, updateLeiRecord } from "../lei-register";
import { dataLayerTest } from "./setup";

/**
 * A company_identity submitted while the LEI register answers 503 waits for review (202);
 * the reviewers' re-run asks again, compares the record's subject with the register's
 * legal name, and issues it once the register answers.
 */
const dir = fs.mkdtempSync(path.join(os.tmpdir(), "prs-unit-"));
const recordsFile = path.join(dir, "lei-records.json");
const register = await startLeiRegister(recordsFile, {});
const { db, sandboxCustomer, reviewer: newReviewer } = await dataLayerTest({ dir, env: { LEI_API_URL: register.url, LEI_TIMEOUT_MS: "2000" } });
const { createRecord } = await import("@/lib/records/create-record");
const { rerunAutomaticCheck } = await import("@/lib/reviews/decide-submission");

afterAll(async () => {
  await register.close();
});

describe("company_identity re-run", () => {
  it("waits while the register fails, and issues under the register's legal name once it answers", async () => {
    const reviewer = await newReviewer();
    const { auth } = await sandboxCustomer({ tag: "c" });
    const lei = randomLei();
    setLeiRecord(recordsFile, lei, { legalName: "Résumé Holdings AG", jurisdiction: "CH", registrationStatus: "ISSUED", entityStatus: "ACTIVE", failStatus: 503 });

    const res = await createRecord(db, auth, {
      subject: "RÉSUMÉ  HOLDINGS AG", claim_type: "company_identity", claim: "Résumé Holdings AG holds an active LEI.", evidence: { lei },
    }, randomUUID());
    expect(res.status, res.bodyJson).toBe(202);
    const id = JSON.parse(res.bodyJson).verification_id as string;
    expect(await rerunAutomaticCheck(db, reviewer, id)).toMatchObject({ outcome: "unreachable", reason: expect.stringMatching(/503/) });

    updateLeiRecord(recordsFile, lei, { failStatus: undefined });
    const done = await rerunAutomaticCheck(db, reviewer, id);
    expect(done).toMatchObject({
      outcome: "issued",
      record: { status: "active", evidence_level: "source_verified", evidence: { lei, legal_name: "Résumé Holdings AG", registration_status: "ISSUED", entity_status: "ACTIVE" } },
    });
  });

  it("a re-run that finds another legal name does not issue", async () => {
    const reviewer = await newReviewer();
    const { auth } = await sandboxCustomer({ tag: "c" });
    const lei = randomLei();
    setLeiRecord(recordsFile, lei, { legalName: "Somebody Else Ltd", registrationStatus: "ISSUED", entityStatus: "ACTIVE", failStatus: 503 });
    const res = await createRecord(db, auth, { subject: "Acme Ltd", claim_type: "company_identity", claim: "Acme Ltd holds an active LEI.", evidence: { lei } }, randomUUID());
    expect(res.status).toBe(202);
    const id = JSON.parse(res.bodyJson).verification_id as string;
    updateLeiRecord(recordsFile, lei, { failStatus: undefined });
    expect(await rerunAutomaticCheck(db, reviewer, id)).toMatchObject({ outcome: "failed", reason: expect.stringContaining("Somebody Else Ltd") });
  });
});
