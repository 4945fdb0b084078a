import Link from "next/link";
import { GUIDES } from "@/lib/docs/guides";
import { wideColumn } from "./site-chrome";

/**
 * The docs' own navigation under the site header: the API reference and every guide, on
 * every docs page. It wraps onto a second line on a phone rather than hiding entries.
 */
export function DocsNav({ active }: { active: "reference" | "guides" | (typeof GUIDES)[number]["slug"] }) {
  const items = [
    { key: "reference", href: "/docs", label: "API reference" },
    ...GUIDES.map((g) => ({ key: g.slug, href: `/docs/guides/${g.slug}`, label: g.title })),
  ];
  return (
    <nav aria-label="Documentation" className="border-b border-slate-200 bg-slate-100/80">
      <ul className={`${wideColumn} flex flex-wrap gap-x-1 gap-y-1 py-2 text-sm`}>
        {items.map((i) => {
          const props = {
            href: i.href,
            "aria-current": active === i.key ? ("page" as const) : undefined,
            className: `block rounded px-2.5 py-1 ${active === i.key ? "bg-white font-medium text-slate-950 shadow-sm ring-1 ring-slate-200" : "text-slate-700 hover:bg-white hover:text-slate-950"}`,
          };
          return (
            <li key={i.key}>
              {/* /docs loads as a document of its own (its CSP, app/docs/api-reference.tsx). */}
              {i.key === "reference" ? <a {...props}>{i.label}</a> : <Link {...props}>{i.label}</Link>}
            </li>
          );
        })}
      </ul>
    </nav>
  );
}
