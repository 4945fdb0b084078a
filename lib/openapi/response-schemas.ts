import { healthSchema, livenessSchema, readinessSchema } from "@/lib/http/health-schema";
import { accountProfileSchema, accountSchema, organisationSchema } from "@/lib/accounts/account-schema";
import { checkSchema } from "@/lib/trust/check-schema";
import { usageSchema } from "@/lib/accounts/usage-schema";
import { fileSchema } from "@/lib/files/file-schema";
import { organisationVerificationSchema, organisationVerificationStateSchema, registerAnswerSchema } from "@/lib/organisations/verification-schema";
import { domainChallengeSchema, walletChallengeSchema } from "@/lib/challenges/challenge-schema";
import { errorCodeSchema, errorSchema, fieldErrorSchema } from "@/lib/http/error-schema";
import { environmentSchema, evidenceLevelSchema, recordStatusSchema, timestampSchema } from "@/lib/http/response-primitives";
import { watchDeletedSchema, watchListSchema, watchMatchSchema, watchSchema } from "@/lib/watches/watch-schema";
import { mandateKeyListSchema, mandateKeySchema, publicMandateKeySchema } from "@/lib/mandates/mandate-key-schema";
import { batchRowResultSchema, batchSchema } from "@/lib/records/batch-schema";
import {
  historyEntrySchema, recordIntegritySchema, recordLifecycleSchema, recordLinkSchema, recordListSchema, recordSchema,
} from "@/lib/public/record/record-schema";
import { signatureCheckSchema } from "@/lib/public/record/signature-check-schema";
import { historyPageSchema } from "@/lib/public/record/history-page-schema";
import { recordLogEntrySchema, recordLogSchema } from "@/lib/public/record/record-log-schema";
import { signedPayloadSchema } from "@/lib/public/record/signed-payload-schema";
import { logEntrySchema, signedStatusSchema } from "@/lib/public/record/signed-status-schema";
import { jwkSchema, jwksSchema } from "@/lib/signing/jwks-schema";
import {
  dataIntegrityProofSchema, didDocumentSchema, multikeySchema, recordCredentialSchema, statusEntrySchema, statusListCredentialSchema,
} from "@/lib/public/vc/vc-schema";
import { lookupAnswerSchema, lookupMatchSchema, takenDownSchema } from "@/lib/public/lookup/lookup-schema";
import { checkAnswerSchema, checkPartSchema } from "@/lib/public/check/check-schema";
import {
  eventDetailSchema, eventListSchema, eventSchema, webhookDeletedSchema, webhookDeliveryListSchema, webhookListSchema, webhookReplayedSchema,
  webhookSchema, webhookTestSchema,
} from "@/lib/webhooks/webhook-schema";
import { badgeSightingListSchema, badgeSightingSchema } from "@/lib/public/embed/sightings/sighting-schema";
import { webhookPublicKeysSchema } from "@/lib/webhooks/webhook-public-keys-schema";
import { apiKeyCreatedSchema, apiKeyListSchema, apiKeySchema } from "@/lib/accounts/api-key-schema";

/**
 * Every response schema with an id, for the OpenAPI components. Each schema lives beside
 * the code that builds its answer (`*-schema.ts`), with compile-time checks that the two
 * name the same fields; the shared pieces are in lib/http/response-primitives.ts.
 */
export const RESPONSE_SCHEMAS = [
  timestampSchema,
  recordStatusSchema,
  evidenceLevelSchema,
  environmentSchema,
  organisationSchema,
  accountProfileSchema,
  checkSchema,
  historyEntrySchema,
  recordLifecycleSchema,
  recordIntegritySchema,
  recordLinkSchema,
  recordSchema,
  recordListSchema,
  historyPageSchema,
  logEntrySchema,
  signedStatusSchema,
  lookupMatchSchema,
  takenDownSchema,
  lookupAnswerSchema,
  checkPartSchema,
  checkAnswerSchema,
  signedPayloadSchema,
  signatureCheckSchema,
  recordLogEntrySchema,
  recordLogSchema,
  jwkSchema,
  jwksSchema,
  dataIntegrityProofSchema,
  statusEntrySchema,
  recordCredentialSchema,
  statusListCredentialSchema,
  multikeySchema,
  didDocumentSchema,
  usageSchema,
  accountSchema,
  fileSchema,
  registerAnswerSchema,
  organisationVerificationSchema,
  organisationVerificationStateSchema,
  domainChallengeSchema,
  walletChallengeSchema,
  errorCodeSchema,
  fieldErrorSchema,
  errorSchema,
  batchRowResultSchema,
  batchSchema,
  healthSchema,
  livenessSchema,
  readinessSchema,
  webhookSchema,
  webhookListSchema,
  webhookDeletedSchema,
  webhookTestSchema,
  webhookDeliveryListSchema,
  webhookReplayedSchema,
  eventSchema,
  eventListSchema,
  eventDetailSchema,
  webhookPublicKeysSchema,
  apiKeySchema,
  apiKeyCreatedSchema,
  apiKeyListSchema,
  mandateKeySchema,
  mandateKeyListSchema,
  publicMandateKeySchema,
  // Badge sightings (issue 31)
  badgeSightingSchema,
  badgeSightingListSchema,
  // Impersonation watches (issue 31)
  watchMatchSchema,
  watchSchema,
  watchListSchema,
  watchDeletedSchema,
] as const;
