import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { LEI, leiRequests, randomLei, setLeiRecord, startLeiRegister, updateLeiRecord } from "@/tests/lei-register";
import { lookupLei } from "./lei";
import { isValidLei } from "./lei-format";

/** The LEI client against the stand-in register (a real HTTP server on loopback). */
let dir: string;
let register: Awaited<ReturnType<typeof startLeiRegister>>;
const TIMEOUT_MS = 700;
const ask = (lei: string) => lookupLei(lei, { baseUrl: register.url, timeoutMs: TIMEOUT_MS });

beforeAll(async () => {
  dir = fs.mkdtempSync(path.join(os.tmpdir(), "prs-lei-"));
  register = await startLeiRegister(path.join(dir, "lei-records.json"));
});
afterAll(async () => {
  await register?.close();
  fs.rmSync(dir, { recursive: true, force: true });
});

describe("LEI register client", () => {
  it("the stand-in's LEIs all carry valid check digits", () => {
    expect(Object.values(LEI).filter((l) => !isValidLei(l))).toEqual([]);
    expect(isValidLei(randomLei())).toBe(true);
  });

  it("ISSUED / ACTIVE → found, with the typed subset, asked with the JSON:API Accept header", async () => {
    expect(await ask(LEI.active)).toEqual({
      kind: "found",
      value: {
        lei: LEI.active, legalName: "Proof Records Test Company Ltd", jurisdiction: "GB",
        registrationStatus: "ISSUED", entityStatus: "ACTIVE", nextRenewalDate: "2027-07-06T07:17:33Z",
      },
    });
    expect(leiRequests(register.recordsFile, LEI.active)).toEqual([{ lei: LEI.active, accept: "application/vnd.api+json", status: 200 }]);
  });

  it("a base URL with a trailing slash asks the same path", async () => {
    const r = await lookupLei(LEI.realIssued, { baseUrl: `${register.url}/`, timeoutMs: TIMEOUT_MS });
    expect(r).toMatchObject({ kind: "found", value: { lei: LEI.realIssued, legalName: "RAHUL", jurisdiction: "IN" } });
  });

  it("LAPSED registration and INACTIVE entity are found, with their statuses (the claim decides)", async () => {
    expect(await ask(LEI.lapsed)).toMatchObject({ kind: "found", value: { registrationStatus: "LAPSED", entityStatus: "ACTIVE", nextRenewalDate: "2014-11-01T10:44:00Z" } });
    expect(await ask(LEI.inactive)).toMatchObject({ kind: "found", value: { registrationStatus: "ISSUED", entityStatus: "INACTIVE" } });
  });

  it("unknown LEI (404) → not_found", async () => {
    expect(await ask(LEI.unknown)).toEqual({ kind: "not_found", reason: `The LEI register has no record for ${LEI.unknown}.` });
    expect(leiRequests(register.recordsFile, LEI.unknown).map((r) => r.status)).toEqual([404]);
  });

  it("429 → unreachable naming the Retry-After; the next call, answered, is found", async () => {
    expect(await ask(LEI.rateLimited)).toEqual({ kind: "unreachable", reason: "The LEI register is rate limiting requests (Retry-After: 1)." });
    expect(await ask(LEI.rateLimited)).toMatchObject({ kind: "found", value: { lei: LEI.rateLimited, jurisdiction: "US-DE" } });
    expect(leiRequests(register.recordsFile, LEI.rateLimited).map((r) => r.status)).toEqual([429, 200]);
  });

  it("an answer slower than the timeout → unreachable, in about the timeout", async () => {
    const started = Date.now();
    expect(await ask(LEI.slow)).toEqual({ kind: "unreachable", reason: `The LEI register did not answer within ${TIMEOUT_MS} ms.` });
    // The stand-in answers after 5 s; giving up well before that is the timeout at work.
    expect(Date.now() - started).toBeLessThan(4000);
  });

  it("5xx → unreachable", async () => {
    expect(await ask(LEI.serverError)).toEqual({ kind: "unreachable", reason: "The LEI register answered HTTP 503." });
  });

  it("a 200 that is not JSON, or not an LEI record → unreachable", async () => {
    expect(await ask(LEI.notJson)).toEqual({ kind: "unreachable", reason: "The LEI register's answer could not be read: the answer is not JSON." });
    expect(await ask(LEI.wrongShape)).toEqual({ kind: "unreachable", reason: "The LEI register's answer is not an LEI record." });
  });

  it("a record for another LEI than the one asked → unreachable", async () => {
    const asked = randomLei();
    const other = randomLei();
    setLeiRecord(register.recordsFile, asked, { legalName: "Mixed Up Ltd", registrationStatus: "ISSUED", entityStatus: "ACTIVE", answerAs: other });
    expect(await ask(asked)).toEqual({ kind: "unreachable", reason: `The LEI register answered for ${other}, not ${asked}.` });
  });

  it("no register listening → unreachable", async () => {
    const closed = await startLeiRegister(path.join(dir, "closed.json"));
    const url = closed.url;
    await closed.close();
    const r = await lookupLei(LEI.active, { baseUrl: url, timeoutMs: TIMEOUT_MS });
    expect(r).toEqual({ kind: "unreachable", reason: "The LEI register could not be reached (ECONNREFUSED)." });
  });

  it("the register's records change at run time: a lapse, then a renewal", async () => {
    const lei = randomLei();
    expect((await ask(lei)).kind).toBe("not_found");
    setLeiRecord(register.recordsFile, lei, { legalName: "Renewing Ltd", registrationStatus: "ISSUED", entityStatus: "ACTIVE", nextRenewalDate: "2026-01-01T00:00:00Z" });
    expect(await ask(lei)).toMatchObject({ kind: "found", value: { registrationStatus: "ISSUED" } });
    updateLeiRecord(register.recordsFile, lei, { registrationStatus: "LAPSED" });
    expect(await ask(lei)).toMatchObject({ kind: "found", value: { registrationStatus: "LAPSED" } });
    updateLeiRecord(register.recordsFile, lei, { registrationStatus: "ISSUED", nextRenewalDate: "2027-01-01T00:00:00Z" });
    expect(await ask(lei)).toMatchObject({ kind: "found", value: { registrationStatus: "ISSUED", nextRenewalDate: "2027-01-01T00:00:00Z" } });
  });
});
