import { lookupLei, type LeiRecord } from "@/lib/connectors/lei";

/**
 * What the LEI register answered about an applicant's LEI, as an application keeps it and
 * the reviewer is shown it: the record's legal name and statuses, no record, or no answer.
 */
export type RegisterAnswer =
  | { result: "found"; legal_name: string; jurisdiction: string | null; registration_status: string; entity_status: string; next_renewal_date: string | null; checked_at: string }
  | { result: "not_found"; reason: string; checked_at: string }
  | { result: "unreachable"; reason: string; checked_at: string };

/** A register record a verified organisation may rest on: registration ISSUED and entity ACTIVE. */
export const standsInRegister = (r: { registration_status: string; entity_status: string }) =>
  r.registration_status === "ISSUED" && r.entity_status === "ACTIVE";

export const notActiveReason = (lei: string, r: { registration_status: string; entity_status: string }) =>
  `The LEI register shows ${lei} with registration status ${r.registration_status} and entity status ${r.entity_status}; a verified organisation needs ISSUED and ACTIVE.`;

const fromRecord = (rec: LeiRecord, at: string): RegisterAnswer => ({
  result: "found", legal_name: rec.legalName, jurisdiction: rec.jurisdiction, registration_status: rec.registrationStatus,
  entity_status: rec.entityStatus, next_renewal_date: rec.nextRenewalDate, checked_at: at,
});

/** Ask the register (lib/connectors/lei.ts) about a well-formed LEI. Never throws. */
export async function askRegister(lei: string, now = new Date()): Promise<RegisterAnswer> {
  const found = await lookupLei(lei);
  const at = now.toISOString();
  if (found.kind === "found") return fromRecord(found.value, at);
  if (found.kind === "not_found") return { result: "not_found", reason: found.reason ?? `The LEI register has no record for ${lei}.`, checked_at: at };
  return { result: "unreachable", reason: found.reason, checked_at: at };
}

/** A stored `register` column read back (it is jsonb): the answer, or null when there was no LEI. */
export const registerAnswerOf = (v: unknown): RegisterAnswer | null => (v && typeof v === "object" && "result" in v ? (v as RegisterAnswer) : null);
