import { randomBytes } from "node:crypto";
import fs from "node:fs";
import http from "node:http";
import type { AddressInfo } from "node:net";
import { leiCheckDigits } from "../lib/connectors/lei-format";

/**
 * One LEI in the stand-in register. The record fields are what GLEIF serves (protocols.md
 * §1); the behaviour fields make the register misbehave for that LEI.
 */
export type LeiEntry = {
  legalName: string;
  jurisdiction?: string | null;
  /** ISSUED, LAPSED, RETIRED, … */
  registrationStatus: string;
  /** ACTIVE or INACTIVE. */
  entityStatus: string;
  nextRenewalDate?: string | null;
  category?: string | null;
  /** Answer 429 with `Retry-After: 1` this many more times before answering normally (counted down in the file). */
  rateLimited?: number;
  /** Wait this long before answering (beyond the client's timeout = a register that does not answer). */
  delayMs?: number;
  /** Answer with this HTTP status and a JSON:API error body instead of the record (e.g. 500, 503). */
  failStatus?: number;
  /** Answer 200 with a body that is not JSON, or JSON that is not an LEI record. */
  malformed?: "not_json" | "wrong_shape";
  /** Answer with the record as if it were this other LEI's (a register that mixes answers up). */
  answerAs?: string;
};

export type LeiRecords = Record<string, LeiEntry>;

/** An LEI with valid ISO 17442 check digits: the 18-character base plus its two digits. */
export const leiFor = (base: string) => `${base}${leiCheckDigits(base)}`;

/** A fresh, well-formed LEI under the GLEIF-run LOU prefix 5493, for a test's own data. */
export function randomLei(): string {
  const alphabet = "0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZ";
  const tail = [...randomBytes(12)].map((b) => alphabet[b % alphabet.length]).join("");
  return leiFor(`549300${tail}`);
}

/** The records the register starts with (check digits computed, not typed). */
export const LEI = {
  /** ISSUED / ACTIVE. */
  active: leiFor("549300PRSACTIVE001"),
  /** Registration LAPSED, entity still ACTIVE (like the real 549300LBI3LRIZ2V8V66). */
  lapsed: leiFor("549300PRSLAPSED002"),
  /** Registration ISSUED, entity INACTIVE. */
  inactive: leiFor("549300PRSINACTIV03"),
  /** 429 with Retry-After once, then ISSUED / ACTIVE. */
  rateLimited: leiFor("549300PRSRATELIM04"),
  /** ISSUED / ACTIVE, but answers after 5 s. */
  slow: leiFor("549300PRSSLOWREG05"),
  /** Answers 503. */
  serverError: leiFor("549300PRSSERVERR06"),
  /** Answers 200 with a body that is not JSON. */
  notJson: leiFor("549300PRSNOTJSON07"),
  /** Answers 200 with JSON that is not an LEI record. */
  wrongShape: leiFor("549300PRSWRONGSH08"),
  /** Not in the register: 404. */
  unknown: leiFor("549300PRSUNKNOWN09"),
  /** The real captured fixture (pygleif): ISSUED / ACTIVE sole proprietor in India. */
  realIssued: "9845001B2AD43E664E58",
} as const;

export function defaultLeiRecords(): LeiRecords {
  const issued = { registrationStatus: "ISSUED", entityStatus: "ACTIVE", nextRenewalDate: "2027-07-06T07:17:33Z" };
  return {
    [LEI.active]: { ...issued, legalName: "Proof Records Test Company Ltd", jurisdiction: "GB", category: "GENERAL" },
    [LEI.lapsed]: { legalName: "UK Equity Fund (Offshore)", jurisdiction: "IE", category: "FUND", registrationStatus: "LAPSED", entityStatus: "ACTIVE", nextRenewalDate: "2014-11-01T10:44:00Z" },
    [LEI.inactive]: { ...issued, legalName: "Dissolved Holdings GmbH", jurisdiction: "DE", entityStatus: "INACTIVE" },
    [LEI.rateLimited]: { ...issued, legalName: "Busy Register Customer Inc.", jurisdiction: "US-DE", rateLimited: 1 },
    [LEI.slow]: { ...issued, legalName: "Slow Answer SA", jurisdiction: "FR", delayMs: 5000 },
    [LEI.serverError]: { ...issued, legalName: "Server Error BV", jurisdiction: "NL", failStatus: 503 },
    [LEI.notJson]: { ...issued, legalName: "Not Json AB", jurisdiction: "SE", malformed: "not_json" },
    [LEI.wrongShape]: { ...issued, legalName: "Wrong Shape Oy", jurisdiction: "FI", malformed: "wrong_shape" },
    [LEI.realIssued]: { legalName: "RAHUL", jurisdiction: "IN", category: "SOLE_PROPRIETOR", registrationStatus: "ISSUED", entityStatus: "ACTIVE", nextRenewalDate: "2025-07-06T07:17:33Z" },
  };
}

const readRecords = (file: string): LeiRecords => JSON.parse(fs.readFileSync(file, "utf8"));

function writeRecords(file: string, records: LeiRecords) {
  const tmp = `${file}.${process.pid}.${randomBytes(4).toString("hex")}.tmp`;
  fs.writeFileSync(tmp, JSON.stringify(records, null, 1));
  fs.renameSync(tmp, file);
}

/** Set (or with null, remove) one LEI in the register's records file, atomically. Works from any process. */
export function setLeiRecord(file: string, lei: string, entry: LeiEntry | null) {
  const records = readRecords(file);
  if (entry === null) delete records[lei];
  else records[lei] = entry;
  writeRecords(file, records);
}

/** Change some fields of one LEI (e.g. `{ registrationStatus: "LAPSED" }`, later back to "ISSUED"). */
export function updateLeiRecord(file: string, lei: string, change: Partial<LeiEntry>) {
  const records = readRecords(file);
  if (!records[lei]) throw new Error(`no LEI ${lei} in ${file}`);
  records[lei] = { ...records[lei], ...change };
  writeRecords(file, records);
}

/** One request the register received: the path's LEI and the Accept header it came with. */
export type LeiRequest = { lei: string; accept: string | null; status: number };
const requestLog = (file: string) => `${file}.requests`;

/** The requests the register started on `file` has answered (or is answering) for `lei`. */
export function leiRequests(file: string, lei: string): LeiRequest[] {
  if (!fs.existsSync(requestLog(file))) return [];
  return fs.readFileSync(requestLog(file), "utf8").split("\n").filter(Boolean)
    .map((l) => JSON.parse(l) as LeiRequest).filter((r) => r.lei === lei);
}

const API = "application/vnd.api+json";
const notFoundBody = JSON.stringify({ errors: [{ status: "404", title: "Not Found" }] });

/** The JSON:API single-record document GLEIF serves (protocols.md §1), for `base` = the register's URL. */
function recordDocument(base: string, lei: string, e: LeiEntry) {
  const address = { language: "en", addressLines: ["1 Test Street"], addressNumber: null, addressNumberWithinBuilding: null, mailRouting: null, city: "Testville", region: null, country: (e.jurisdiction ?? "GB").slice(0, 2), postalCode: "00000" };
  const self = `${base}/lei-records/${lei}`;
  return {
    meta: { goldenCopy: { publishDate: new Date().toISOString().replace(/\.\d+Z$/, "Z") } },
    data: {
      type: "lei-records",
      id: lei,
      attributes: {
        lei,
        entity: {
          legalName: { name: e.legalName, language: "en" },
          otherNames: [], transliteratedOtherNames: [],
          legalAddress: address, headquartersAddress: address,
          registeredAt: { id: "RA000585", other: null }, registeredAs: "00000000",
          jurisdiction: e.jurisdiction ?? null,
          category: e.category ?? "GENERAL",
          legalForm: { id: "H0PO", other: null },
          associatedEntity: { lei: null, name: null },
          status: e.entityStatus,
          expiration: e.entityStatus === "INACTIVE" ? { date: "2024-01-31T00:00:00Z", reason: "DISSOLVED" } : { date: null, reason: null },
          successorEntity: { lei: null, name: null }, successorEntities: [],
          creationDate: "2012-06-06T00:00:00Z", subCategory: null, otherAddresses: [], eventGroups: [],
        },
        registration: {
          initialRegistrationDate: "2013-11-01T10:44:00Z",
          lastUpdateDate: "2024-07-06T07:17:31Z",
          status: e.registrationStatus,
          nextRenewalDate: e.nextRenewalDate ?? null,
          managingLou: "5493001KJTIIGC8Y1R12",
          corroborationLevel: "FULLY_CORROBORATED",
          validatedAt: { id: "RA000585", other: null }, validatedAs: "00000000",
          otherValidationAuthorities: [],
        },
        bic: null, mic: null, ocid: null, spglobal: null, conformityFlag: null,
      },
      relationships: {
        "managing-lou": { links: { related: `${self}/managing-lou` } },
        "lei-issuer": { links: { related: `${self}/lei-issuer` } },
        "field-modifications": { links: { related: `${self}/field-modifications` } },
      },
      links: { self },
    },
  };
}

/**
 * A real HTTP server on loopback standing in for the GLEIF LEI API: `GET /api/v1/lei-records/{LEI}`
 * answers from a JSON records file (`LeiRecords`) read on every request, so tests — in
 * this process or another — change the register while it runs (a lapse, then a renewal)
 * with setLeiRecord / updateLeiRecord. Unknown LEIs and other paths are 404 with a JSON:API
 * errors body. Every request is logged (see leiRequests). `url` ends in `/api/v1`, like
 * LEI_API_URL.
 */
export async function startLeiRegister(recordsFile: string, records: LeiRecords = defaultLeiRecords()) {
  writeRecords(recordsFile, records);
  fs.writeFileSync(requestLog(recordsFile), "");
  const timers = new Set<NodeJS.Timeout>();
  let url = "";
  const server = http.createServer((req, res) => {
    const match = /^\/api\/v1\/lei-records\/([^/?#]+)$/.exec(req.url ?? "");
    const lei = match ? match[1]! : "";
    const send = (status: number, body: string, headers: Record<string, string> = {}) => {
      fs.appendFileSync(requestLog(recordsFile), `${JSON.stringify({ lei, accept: req.headers.accept ?? null, status })}\n`);
      if (!res.destroyed) res.writeHead(status, { "content-type": API, ...headers }).end(body);
    };
    if (req.method !== "GET" || !match) return send(404, notFoundBody);
    const all = readRecords(recordsFile);
    const entry = all[lei];
    if (!entry) return send(404, notFoundBody);
    if (entry.rateLimited && entry.rateLimited > 0) {
      updateLeiRecord(recordsFile, lei, { rateLimited: entry.rateLimited - 1 });
      return send(429, JSON.stringify({ errors: [{ status: "429", title: "Too Many Requests" }] }), { "retry-after": "1" });
    }
    const answer = () => {
      if (entry.failStatus) return send(entry.failStatus, JSON.stringify({ errors: [{ status: String(entry.failStatus), title: "Service Unavailable" }] }));
      if (entry.malformed === "not_json") return send(200, "<html><body>Service temporarily unavailable</body></html>", { "content-type": "text/html" });
      if (entry.malformed === "wrong_shape") return send(200, JSON.stringify({ data: { type: "lei-records", id: lei, attributes: { lei } } }));
      send(200, JSON.stringify(recordDocument(url, entry.answerAs ?? lei, entry)));
    };
    if (!entry.delayMs) return answer();
    // time under test: `delayMs` plays a register that answers late, for the service's timeout.
    const t = setTimeout(() => {
      timers.delete(t);
      answer();
    }, entry.delayMs);
    timers.add(t);
  });
  await new Promise<void>((resolve, reject) => {
    server.once("error", reject);
    server.listen(0, "127.0.0.1", () => resolve());
  });
  url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/api/v1`;
  return {
    url,
    recordsFile,
    close: () => new Promise<void>((resolve) => {
      for (const t of timers) clearTimeout(t);
      server.closeAllConnections();
      server.close(() => resolve());
    }),
  };
}
