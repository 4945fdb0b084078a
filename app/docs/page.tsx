import type { Metadata } from "next";
import { DocsNav } from "@/components/docs-nav";
import { scalarBundle, scalarBundleUrl } from "@/lib/docs/scalar-bundle";
import { ApiReference } from "./api-reference";

export const metadata: Metadata = {
  title: "API reference",
  description: "Every endpoint of the Proof Records API, rendered from the live OpenAPI document.",
};

/** The interactive API reference: Scalar renders the live /api/v1/openapi.json in the browser. */
export default async function ApiReferencePage() {
  const bundle = await scalarBundle();
  return (
    <>
      <DocsNav active="reference" />
      <h1 className="sr-only">API reference</h1>
      <ApiReference scriptUrl={bundle ? scalarBundleUrl(bundle.version) : null} documentUrl="/api/v1/openapi.json" />
    </>
  );
}
