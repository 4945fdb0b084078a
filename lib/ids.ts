import { randomBytes, randomInt } from "node:crypto";

const CROCKFORD = "0123456789ABCDEFGHJKMNPQRSTVWXYZ";
const BASE62 = "0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz";

/** `n` characters of Crockford base32: each random byte's low 5 bits pick one (32 divides 256, so no bias). */
function crockford(n: number): string {
  const bytes = randomBytes(n);
  let out = "";
  for (let i = 0; i < n; i++) out += CROCKFORD[bytes[i]! & 31];
  return out;
}

function base62(n: number): string {
  let out = "";
  for (let i = 0; i < n; i++) out += BASE62[randomInt(62)];
  return out;
}

export const RECORD_ID_RE = /^PRS-[0-9A-HJKMNP-TV-Z]{20}$/;

export const newRecordId = () => `PRS-${crockford(20)}`;
export const newAccountId = () => `acct_${crockford(20).toLowerCase()}`;
/** An account id as a path segment may be (loose: anything else is not found without a query). */
export const ACCOUNT_ID_RE = /^acct_[0-9a-z]{1,64}$/;
export const newApiKeyId = () => `key_${crockford(20).toLowerCase()}`;
export const newEventId = () => `evt_${crockford(24).toLowerCase()}`;
export const EVENT_ID_RE = /^evt_[0-9a-hjkmnp-tv-z]{24}$/;
export const newBatchId = () => `bat_${crockford(20).toLowerCase()}`;
export const newRequestId = () => `req_${crockford(20).toLowerCase()}`;
export const newApiKeySecret = (env: "sandbox" | "live") => `prs_${env}_${base62(32)}`;
export const API_KEY_RE = /^prs_(sandbox|live)_[0-9A-Za-z]{32}$/;
export const newWebhookId = () => `wh_${crockford(20).toLowerCase()}`;
export const newReportId = () => `rep_${crockford(20).toLowerCase()}`;
export const newDeliveryId = () => `whd_${crockford(20).toLowerCase()}`;
export const newAttemptId = () => `wha_${crockford(20).toLowerCase()}`;
export const newWebhookSecret = () => `whsec_${randomBytes(32).toString("base64")}`;
export const WEBHOOK_ID_RE = /^wh_[0-9a-hjkmnp-tv-z]{20}$/;
export const newWatchId = () => `wat_${crockford(20).toLowerCase()}`;
export const WATCH_ID_RE = /^wat_[0-9a-hjkmnp-tv-z]{20}$/;
/** Challenge ids as lib/challenges makes them (prefix + 20 letters and digits). */
export const DOMAIN_CHALLENGE_ID_RE = /^dch_[A-Za-z0-9]{20}$/;
export const WALLET_CHALLENGE_ID_RE = /^wch_[A-Za-z0-9]{20}$/;
/**
 * Mandate key ids are chosen by the caller and unique within its account (issue 29: records
 * cite them as the issuing account's key; anyone reads one back at /keys/{account_id}/{key_id}):
 * 3-100 characters, letters, digits and `. _ : -`, starting with a letter or digit; compared
 * exactly (case-sensitive).
 */
export const MANDATE_KEY_ID_RE = /^[A-Za-z0-9][A-Za-z0-9._:-]{2,99}$/;
export const newFileId = () => `file_${crockford(24).toLowerCase()}`;
export const FILE_ID_RE = /^file_[0-9a-hjkmnp-tv-z]{24}$/;
export const newOrganisationVerificationId = () => `orv_${crockford(20).toLowerCase()}`;
export const ORGANISATION_VERIFICATION_ID_RE = /^orv_[0-9a-hjkmnp-tv-z]{20}$/;
export const newPlanRequestId = () => `preq_${crockford(20).toLowerCase()}`;
export const newMailId = () => `mail_${crockford(20).toLowerCase()}`;
export const PLAN_REQUEST_ID_RE = /^preq_[0-9a-hjkmnp-tv-z]{20}$/;
