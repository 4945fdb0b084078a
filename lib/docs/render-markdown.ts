import path from "node:path";
import { Marked, Renderer, type Tokens } from "marked";

/**
 * Markdown → HTML for the guides. The files are ours, but the output is still safe to put
 * in a page: raw HTML in the markdown is shown as text (comments are dropped), links keep
 * only http(s), mailto, same-page and same-site targets, and images become their alt text
 * (the page's CSP would refuse most of them anyway).
 */

export type Heading = { depth: number; text: string; id: string };
export type RenderedMarkdown = { html: string; title: string | null; headings: Heading[] };

type Options = {
  /** The rendered file's path in the repository, e.g. "docs/api.md": relative links resolve from it. */
  fromFile: string;
  /** Repository file → page that renders it; a relative link to any other file becomes plain text. */
  pageOfFile: ReadonlyMap<string, string>;
};

const ENTITIES: Record<string, string> = { "&amp;": "&", "&lt;": "<", "&gt;": ">", "&quot;": '"', "&#39;": "'" };
const unescapeHtml = (s: string) => s.replace(/&(amp|lt|gt|quot|#39);/g, (e) => ENTITIES[e]!);
const escapeHtml = (s: string) =>
  s.replace(/[&<>"']/g, (c) => ({ "&": "&amp;", "<": "&lt;", ">": "&gt;", '"': "&quot;", "'": "&#39;" })[c]!);

/** GitHub's heading anchors (github-slugger): the links inside docs/ were written against them. */
export function slugify(text: string): string {
  return text.toLowerCase().replace(/[^\p{L}\p{M}\p{N}\p{Pc} -]/gu, "").replace(/ /g, "-");
}

/** Where a link in the markdown may point, or null to render its text only. */
export function resolveHref(href: string, { fromFile, pageOfFile }: Options): string | null {
  if (/^https?:\/\//i.test(href) || /^mailto:/i.test(href) || href.startsWith("#")) return href;
  if (href.startsWith("/")) return href.startsWith("//") ? null : href;
  if (/^[a-z][a-z0-9+.-]*:/i.test(href)) return null; // javascript:, data:, file:, …
  const [file = "", hash] = href.split("#", 2);
  const page = pageOfFile.get(path.posix.normalize(path.posix.join(path.posix.dirname(fromFile), file)));
  if (!page) return null;
  return hash ? `${page}#${hash}` : page;
}

export function renderMarkdown(markdown: string, options: Options): RenderedMarkdown {
  const headings: Heading[] = [];
  const used = new Map<string, number>();
  const uniqueId = (text: string) => {
    const base = slugify(text);
    const n = used.get(base);
    used.set(base, (n ?? -1) + 1);
    return n === undefined ? base : `${base}-${n + 1}`;
  };

  const renderer = {
    heading(this: Renderer, { tokens, depth }: Tokens.Heading) {
      const text = unescapeHtml(this.parser.parseInline(tokens, this.parser.textRenderer));
      const id = uniqueId(text);
      headings.push({ depth, text, id });
      return `<h${depth} id="${escapeHtml(id)}"><a class="anchor" href="#${escapeHtml(id)}">${this.parser.parseInline(tokens)}</a></h${depth}>\n`;
    },
    html({ text }: Tokens.HTML | Tokens.Tag) {
      return /^\s*<!--[\s\S]*-->\s*$/.test(text) ? "" : escapeHtml(text);
    },
    link(this: Renderer, { href, title, tokens }: Tokens.Link) {
      const inner = this.parser.parseInline(tokens);
      const target = resolveHref(href, options);
      if (target === null) return inner;
      const external = /^https?:/i.test(target) ? ' rel="noopener noreferrer"' : "";
      return `<a href="${escapeHtml(target)}"${title ? ` title="${escapeHtml(title)}"` : ""}${external}>${inner}</a>`;
    },
    image({ text }: Tokens.Image) {
      return escapeHtml(text);
    },
    table(this: Renderer, token: Tokens.Table) {
      return `<div class="md-table">${Renderer.prototype.table.call(this, token)}</div>\n`;
    },
  };

  const html = new Marked({ gfm: true, async: false, renderer }).parse(markdown) as string;
  return { html, title: headings.find((h) => h.depth === 1)?.text ?? null, headings };
}
