// The SDK is typed from a snapshot of the OpenAPI document; these fail when the snapshot,
// the generated files or the client's methods no longer match what the server publishes
// (fix: `npm run sdk:generate`, then one line in src/methods.ts per new operation).
import fs from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { buildOpenApi } from "@/lib/openapi/build-openapi";
import { SDK_DIR, SNAPSHOT_BASE_URL, sdkGeneratedFiles } from "../../../scripts/sdk-generate";
import { PrsClient, methodEntries, operationTable } from "../src/index.js";

const read = (rel: string) => fs.readFileSync(path.join(SDK_DIR, rel), "utf8");
const doc = buildOpenApi(SNAPSHOT_BASE_URL);

/** Every operationId of a document, from its paths. */
function operationIds(d: { paths: Record<string, Record<string, unknown>> }): string[] {
  return Object.values(d.paths).flatMap((item) =>
    Object.values(item).flatMap((op) => (op && typeof op === "object" && "operationId" in op ? [String(op.operationId)] : [])));
}

describe("the SDK's snapshot of the OpenAPI document", () => {
  it("is what buildOpenApi() builds now (else run npm run sdk:generate)", () => {
    expect(JSON.parse(read("openapi.json")), "packages/sdk/openapi.json is stale: run `npm run sdk:generate`").toEqual(doc);
  });

  it("the generated types and operation table are what the generator writes from it", async () => {
    const files = await sdkGeneratedFiles(doc);
    for (const [rel, content] of Object.entries(files)) expect(read(rel), `packages/sdk/${rel} is stale: run \`npm run sdk:generate\``).toBe(content);
  });
});

describe("every operation of the document is a method of the client", () => {
  const documented = operationIds(doc).sort();
  const covered = methodEntries().map(([, id]) => id as string);

  it("the operation table has exactly the document's operationIds", () => {
    expect(Object.keys(operationTable).sort()).toEqual(documented);
  });

  it("the client names each operationId exactly once, and no other", () => {
    const missing = documented.filter((id) => !covered.includes(id));
    const extra = covered.filter((id) => !documented.includes(id));
    const twice = covered.filter((id, i) => covered.indexOf(id) !== i);
    expect({ missing, extra, twice }, "add one line per operation to packages/sdk/src/methods.ts").toEqual({ missing: [], extra: [], twice: [] });
  });

  it("each of them is a function on a client", () => {
    const client = new PrsClient({ baseUrl: "https://proof.example" });
    for (const [names, id] of methodEntries()) {
      const fn = names.reduce<any>((o, n) => o?.[n], client);
      expect(typeof fn, `client.${names.join(".")} (${id})`).toBe("function");
    }
  });

  it("record creation and batches send an Idempotency-Key; other operations do not", () => {
    const idempotent = Object.entries(operationTable).filter(([, r]) => r.idempotent).map(([id]) => id).sort();
    expect(idempotent).toEqual(["createRecord", "createRecordBatch"]);
  });
});
