import { z } from "zod";
import { getEnv } from "@/lib/env";
import { getJson, type HttpSource } from "./http";
import { found, notFound, unreachable, type SourceResult } from "./source-result";

/** What the LEI register says about one LEI: the part company_identity uses. */
export type LeiRecord = {
  lei: string;
  legalName: string;
  /** ISO 3166-1 alpha-2 or ISO 3166-2 (e.g. "US-DE"); null when the register has none. */
  jurisdiction: string | null;
  /** ISSUED, LAPSED, MERGED, RETIRED, … (kept as the register spells it). */
  registrationStatus: string;
  /** ACTIVE or INACTIVE. */
  entityStatus: string;
  nextRenewalDate: string | null;
};

const text = z.string().min(1).max(1000);

/** The JSON:API single-record answer (protocols.md §1), only the members we read. */
const leiRecordAnswer = z.object({
  data: z.object({
    type: z.literal("lei-records"),
    attributes: z.object({
      lei: text,
      entity: z.object({
        legalName: z.object({ name: text }),
        jurisdiction: text.nullish(),
        status: text,
      }),
      registration: z.object({
        status: text,
        nextRenewalDate: text.nullish(),
      }),
    }),
  }),
});

/** Where the register is and how long one call may take: LEI_API_URL, LEI_TIMEOUT_MS. */
export function leiRegister(): HttpSource {
  const env = getEnv();
  return { baseUrl: env.LEI_API_URL, timeoutMs: env.LEI_TIMEOUT_MS };
}

/**
 * Ask the LEI register for one record (`lei` must already pass isValidLei). 404 is
 * `not_found`; a 429, a 5xx, no answer within the timeout, or an answer that is not a
 * record for this LEI is `unreachable` with a plain reason. Never throws.
 */
export async function lookupLei(lei: string, register: HttpSource = leiRegister()): Promise<SourceResult<LeiRecord>> {
  const answer = await getJson(register, `lei-records/${encodeURIComponent(lei)}`, { accept: "application/vnd.api+json" });
  if (answer.kind === "failed") return unreachable(`The LEI register ${answer.reason}.`);
  const { status } = answer;
  if (status === 404) return notFound(`The LEI register has no record for ${lei}.`);
  if (status === 429) {
    const wait = answer.retryAfter ? ` (Retry-After: ${answer.retryAfter.slice(0, 40)})` : "";
    return unreachable(`The LEI register is rate limiting requests${wait}.`);
  }
  if (status !== 200) return unreachable(`The LEI register answered HTTP ${status}.`);
  if (answer.bodyError) return unreachable(`The LEI register's answer could not be read: ${answer.bodyError}.`);
  const parsed = leiRecordAnswer.safeParse(answer.body);
  if (!parsed.success) return unreachable("The LEI register's answer is not an LEI record.");
  const { attributes: a } = parsed.data.data;
  if (a.lei !== lei) return unreachable(`The LEI register answered for ${a.lei.slice(0, 20)}, not ${lei}.`);
  return found({
    lei: a.lei,
    legalName: a.entity.legalName.name,
    jurisdiction: a.entity.jurisdiction ?? null,
    registrationStatus: a.registration.status,
    entityStatus: a.entity.status,
    nextRenewalDate: a.registration.nextRenewalDate ?? null,
  });
}
