"use client";

import { useEffect } from "react";
import { CopyButton } from "./copy-button";

type Props = {
  id: string;
  /** The service's public address (PUBLIC_BASE_URL): what the snippet names. */
  baseUrl: string;
  /** This build's versioned script and its Subresource Integrity value, for the pinned snippet. */
  versionedPath: string | null;
  integrity: string | null;
  websites: readonly string[];
  environment: string;
  /** The exact hosts its badge is shown on as checked (the signed status's `covers_hosts`, lib/trust/decide.ts badgeHosts). */
  coversHosts: readonly string[];
  /** The account is a verified organisation: the badge is green there; otherwise amber. */
  verifiedOrganisation: boolean;
};

let loading = false;
/**
 * The badge script, added once to this page by this (nonced) code, so the portal's policy
 * ('strict-dynamic') lets it run. It fills the preview below, and any added later.
 */
function loadBadgeScript() {
  if (loading) return;
  loading = true;
  const script = document.createElement("script");
  script.src = "/embed.js";
  script.async = true;
  document.head.append(script);
}

/** A record's embed snippet with copy buttons, and the live badge as the record's own site will show it. */
export function EmbedPanel({ id, baseUrl, versionedPath, integrity, websites, environment, coversHosts, verifiedOrganisation }: Props) {
  useEffect(loadBadgeScript, []);
  const snippet = `<div data-prs-record="${id}"></div>\n<script src="${baseUrl}/embed.js" async></script>`;
  const pinned = versionedPath && integrity
    ? `<div data-prs-record="${id}"></div>\n<script src="${baseUrl}${versionedPath}" integrity="${integrity}" crossorigin="anonymous" async></script>`
    : null;
  return (
    <section aria-labelledby="embed-heading" data-testid="embed-panel">
      <h2 id="embed-heading" className="text-lg font-semibold">Badge for your site</h2>
      <p className="mt-1 max-w-prose text-sm text-slate-600">
        Paste these two lines where the badge should appear. The badge checks this record&apos;s signed status in each
        visitor&apos;s browser and links to its certificate.{" "}
        {environment === "sandbox"
          ? "This is a sandbox record: its badge always says “Sandbox — not verified”."
          : coversHosts.length > 0
            ? verifiedOrganisation
              ? <span data-testid="embed-coverage">It shows green only on exactly {coversHosts.join(", ")} — not on other subdomains; anywhere else it warns that it is shown on a site this record does not cover.</span>
              : <span data-testid="embed-coverage">On exactly {coversHosts.join(", ")} it shows amber — &ldquo;who runs this site is not verified&rdquo; — because this account is not a verified organisation; it turns green once a reviewer verifies your organisation. Anywhere else it warns that it is shown on a site this record does not cover.</span>
            : websites.length > 0
              ? <span data-testid="embed-coverage">While the record is not verified (checked and in force) its badge is green nowhere; on a site other than {websites.join(", ")} it warns.</span>
              : "It names no website, so it shows the same on any site."}
      </p>
      <div className="mt-3 flex flex-wrap items-start gap-3">
        <pre id="embed-snippet" className="min-w-0 max-w-full flex-1 overflow-x-auto rounded border border-slate-200 bg-slate-50 p-3 text-xs" data-testid="embed-snippet">{snippet}</pre>
        <CopyButton value={snippet} label="embed snippet" targetId="embed-snippet" />
      </div>
      {pinned && (
        <details className="mt-3 text-sm">
          <summary className="cursor-pointer text-slate-700">Pinned version with Subresource Integrity</summary>
          <p className="mt-1 max-w-prose text-slate-600">
            Runs exactly this version of the script and nothing else; after a release the browser refuses the new one
            until you update the snippet.
          </p>
          <div className="mt-2 flex flex-wrap items-start gap-3">
            <pre id="embed-snippet-pinned" className="min-w-0 max-w-full flex-1 overflow-x-auto rounded border border-slate-200 bg-slate-50 p-3 text-xs">{pinned}</pre>
            <CopyButton value={pinned} label="pinned snippet" targetId="embed-snippet-pinned" />
          </div>
        </details>
      )}
      <h3 className="mt-4 text-sm font-semibold text-slate-700">Live preview</h3>
      <div className="mt-2" data-testid="embed-preview">
        <div data-prs-record={id} />
      </div>
    </section>
  );
}
