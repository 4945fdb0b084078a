import { z } from "zod";
import { domainChallengeRequest, walletChallengeRequest } from "@/lib/challenges/challenges";
import { batchCreateSchema, lifecycleSchema, listRecordsQuerySchema, recordCreateSchema, recordIdSchema } from "@/lib/record-model/schemas";
import { accountUpdateSchema } from "@/lib/accounts/account-profile";
import { organisationVerificationRequest } from "@/lib/organisations/apply-for-verification";
import { principalChangeSchema } from "@/lib/records/change-principal";
import { evidenceRefreshSchema } from "@/lib/records/refresh-evidence";
import { mandateKeyCreateSchema } from "@/lib/mandates/manage-mandate-keys";
import { listEventsQuerySchema } from "@/lib/webhooks/events-api";
import { listBadgeSightingsQuerySchema } from "@/lib/public/embed/sightings/list-sightings";
import { apiKeyCreateSchema } from "@/lib/accounts/api-keys-api";
import { webhookCreateSchema, webhookReplaySchema, webhookRotateSchema } from "@/lib/webhooks/manage-webhooks";
import { lookupQuerySchema } from "@/lib/public/lookup/lookup-query";
import { checkQuerySchema } from "@/lib/public/check/answer-check";
import { watchCreateSchema } from "@/lib/watches/manage-watches";
import type { ClaimTypeDocs } from "./claim-type-docs";
import { RESPONSE_SCHEMAS } from "./response-schemas";
import { schemaRef, type JsonSchema } from "./shared";

function idOf(schema: z.ZodType): string {
  const id = z.globalRegistry.get(schema)?.id;
  if (!id) throw new Error("openapi: a component schema has no .meta({ id })");
  return id;
}

/**
 * One zod registry conversion: every schema becomes a component and every nested schema
 * with an id becomes a `$ref` to its component. Requests are converted as the input type
 * (what a client sends: defaults make fields optional), responses as the output type.
 */
function componentsFrom(schemas: readonly z.ZodType[], io: "input" | "output", extra: Record<string, z.ZodType> = {}) {
  const registry = z.registry<{ id?: string }>();
  for (const s of schemas) registry.add(s, { id: idOf(s) });
  for (const [id, s] of Object.entries(extra)) registry.add(s, { id });
  const { schemas: out } = z.toJSONSchema(registry, { target: "draft-2020-12", io, uri: schemaRef, unrepresentable: "throw" });
  if ("__shared" in out) {
    // A nested schema has a global id but is not in this registry: zod would point into a
    // "__shared" document that does not exist here.
    throw new Error(`openapi: schemas with an id missing from the ${io} components: ${Object.keys(out.__shared?.$defs ?? {}).join(", ")}`);
  }
  const result: Record<string, JsonSchema> = {};
  for (const [id, schema] of Object.entries(out)) {
    // Each entry is emitted as a standalone document; inside components it is a plain schema.
    const { $schema: _s, $id: _i, ...rest } = schema as JsonSchema;
    result[id] = rest;
  }
  return result;
}

function mergeComponents(...sets: Record<string, JsonSchema>[]): Record<string, JsonSchema> {
  const out: Record<string, JsonSchema> = {};
  for (const set of sets) {
    for (const [id, schema] of Object.entries(set)) {
      const seen = out[id];
      if (seen && JSON.stringify(seen) !== JSON.stringify(schema)) {
        throw new Error(`openapi: component ${id} differs between request and response use`);
      }
      out[id] = schema;
    }
  }
  return out;
}

/**
 * The document's schema components, generated from the zod schemas the handlers validate
 * with (requests) and the response schemas (answers), and the query parameters of listRecords
 * and lookup: the properties of listRecordsQuerySchema and lookupQuerySchema, as a client
 * sends them.
 */
export function schemaComponents(claims: ClaimTypeDocs) {
  const requestComponents = componentsFrom(
    [recordCreateSchema, batchCreateSchema, lifecycleSchema, recordIdSchema, domainChallengeRequest, walletChallengeRequest, ...claims.evidenceSchemas, webhookCreateSchema, webhookRotateSchema, webhookReplaySchema, apiKeyCreateSchema, mandateKeyCreateSchema, accountUpdateSchema, principalChangeSchema, evidenceRefreshSchema, organisationVerificationRequest, watchCreateSchema],
    "input",
    {
      ListRecordsQuery: listRecordsQuerySchema,
      ListEventsQuery: listEventsQuerySchema,
      LookupQuery: lookupQuerySchema,
      CheckQuery: checkQuerySchema,
      ListBadgeSightingsQuery: listBadgeSightingsQuerySchema,
    },
  );
  const responseComponents = componentsFrom([...RESPONSE_SCHEMAS, recordIdSchema], "output");

  /** A query schema's properties as query parameters (the component itself is not published). */
  const parametersOf = (id: string) => {
    const query = requestComponents[id] as { properties: Record<string, JsonSchema>; required?: string[] };
    delete requestComponents[id];
    return Object.entries(query.properties).map(([name, prop]) => {
      const { description, ...schema } = prop;
      return { name, in: "query", required: query.required?.includes(name) ?? false, description, schema };
    });
  };
  const listParameters = parametersOf("ListRecordsQuery");
  const eventListParameters = parametersOf("ListEventsQuery");
  const lookupParameters = parametersOf("LookupQuery");
  const checkParameters = parametersOf("CheckQuery");
  const sightingListParameters = parametersOf("ListBadgeSightingsQuery");

  return { schemas: mergeComponents(requestComponents, responseComponents), listParameters, eventListParameters, lookupParameters, checkParameters, sightingListParameters };
}
