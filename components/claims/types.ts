import type { ReactNode } from "react";
import type { AuthContext } from "@/lib/accounts/types";
import type { RecordObject } from "@/lib/public/record/serialize-record";

export type Evidence = Record<string, unknown>;

/** A claim type's UI piece: what its certificate says was and was not proved, and what a reviewer sees. */
export type ClaimUi = {
  type: string;
  /** Names for the type's own public evidence keys in the certificate's evidence list (components/evidence-list.tsx); others are spelled out from the key. */
  labels?: Readonly<Record<string, string>>;
  /** The certificate's "what was proved / what this does not prove" box. */
  scope?: (evidence: Evidence) => { proved?: ReactNode; notProved: string; recheck?: ReactNode };
  /**
   * What the fields the type adds to the public view (its part of the signed status, e.g. an
   * agent's spend ledger) say on the certificate, in plain words; absent: nothing more.
   */
  Facts?: (props: { fields: Record<string, unknown> }) => ReactNode;
  /** The reviewer's view of a submission's evidence; absent: the generic source view. */
  ReviewEvidence?: (props: { evidence: Evidence }) => ReactNode;
  /**
   * What the owner's record page (app/records/[id]) shows and lets the owner do beyond the
   * common fields and lifecycle (e.g. an agent's mandate and its principal link). A server
   * component; `auth` is the signed-in account in the record's environment.
   */
  OwnerPanel?: (props: { record: RecordObject; auth: AuthContext }) => ReactNode | Promise<ReactNode>;
};

export const str = (v: unknown) => (typeof v === "string" ? v : "");
export const shown = (evidence: Evidence, k: string) => (evidence[k] === undefined || evidence[k] === null ? "—" : String(evidence[k]));
export const checkedAt = (evidence: Evidence) => str(evidence.checked_at).replace("T", " ").replace(/\.\d+Z$/, " UTC");
