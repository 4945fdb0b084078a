import fs from "node:fs/promises";
import path from "node:path";
import { renderMarkdown, type RenderedMarkdown } from "./render-markdown";

/**
 * The guides `/docs/guides/<slug>` serves: the markdown files a user or an operator reads,
 * rendered from the repository's own files at request time (so /docs never disagrees with
 * docs/). Only these files: the slug is looked up here, never turned into a path.
 */
export const GUIDES = [
  { slug: "getting-started", file: "README.md", title: "Getting started", summary: "Run the service, issue a first record, use the portal, configure it and operate it." },
  { slug: "api", file: "docs/api.md", title: "API guide", summary: "Every endpoint with recorded requests and answers: keys, errors, idempotency, claim types, proofs, webhooks." },
  { slug: "embed", file: "docs/embed.md", title: "The embed badge", summary: "Two lines on your site: what the badge checks in each visitor's browser, and what it cannot prove." },
  { slug: "operations", file: "docs/operations.md", title: "Operations", summary: "Topologies, backups and restore, key rotation, health, monitoring and logs, upgrades, the path past one database." },
  { slug: "claim-types", file: "docs/claim-types.md", title: "Adding a claim type", summary: "For operators extending the service: one definition, its UI piece and its tests." },
  { slug: "security", file: "docs/security.md", title: "Security", summary: "The OWASP ASVS level-2 checklist, each line with the test that proves it; the security review and the headers every answer carries." },
  { slug: "decisions", file: "docs/decisions.md", title: "Design decisions", summary: "Why the service behaves as it does, decision by decision." },
] as const;

export type Guide = (typeof GUIDES)[number];

export const guideBySlug = (slug: string): Guide | undefined => GUIDES.find((g) => g.slug === slug);

/** Repository file → its guide page, so links between the markdown files stay links. */
const pageOfFile = new Map<string, string>(GUIDES.map((g) => [g.file, `/docs/guides/${g.slug}`]));

const cache = new Map<string, { mtimeMs: number; rendered: RenderedMarkdown }>();

/** A guide rendered to HTML (cached until its file changes); null when the file is not deployed. */
export async function renderGuide(guide: Guide): Promise<RenderedMarkdown | null> {
  // Read from the checkout at run time (not traced into a build: the files are not code).
  const file = path.join(/*turbopackIgnore: true*/ process.cwd(), guide.file);
  const stat = await fs.stat(file).catch(() => null);
  if (!stat) return null;
  const hit = cache.get(guide.slug);
  if (hit && hit.mtimeMs === stat.mtimeMs) return hit.rendered;
  const rendered = renderMarkdown(await fs.readFile(file, "utf8"), { fromFile: guide.file, pageOfFile });
  cache.set(guide.slug, { mtimeMs: stat.mtimeMs, rendered });
  return rendered;
}
