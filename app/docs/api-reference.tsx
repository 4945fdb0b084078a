"use client";

import { useEffect, useRef, useState } from "react";

type ScalarInstance = { destroy: () => void };
type ScalarGlobal = { createApiReference: (el: HTMLElement, config: Record<string, unknown>) => ScalarInstance };
declare global {
  interface Window { Scalar?: ScalarGlobal }
}

let loading: Promise<ScalarGlobal> | undefined;

/**
 * Scalar's standalone bundle, loaded once per document. The script element is created by
 * this (nonced) script, so the page policy's 'strict-dynamic' lets it run.
 */
function loadScalar(src: string): Promise<ScalarGlobal> {
  if (window.Scalar) return Promise.resolve(window.Scalar);
  loading ??= new Promise((resolve, reject) => {
    const script = document.createElement("script");
    script.src = src;
    script.async = true;
    script.onload = () => (window.Scalar ? resolve(window.Scalar) : reject(new Error("no Scalar global")));
    script.onerror = () => {
      loading = undefined;
      script.remove();
      reject(new Error(`could not load ${src}`));
    };
    document.head.append(script);
  });
  return loading;
}

/**
 * Scalar writes inline styles, which only /docs's own policy allows
 * (lib/http/security-headers.ts INLINE_STYLE_PAGES). A document keeps the policy it was
 * loaded with, so after a client-side navigation from another page the reference needs
 * /docs loaded as a document of its own.
 */
function loadedWithDocsPolicy(): boolean {
  const entry = performance.getEntriesByType("navigation")[0];
  return !entry || new URL(entry.name).pathname.replace(/\/$/, "") === "/docs";
}

/** Scalar's API reference, rendered in the browser from the live OpenAPI document. */
export function ApiReference({ scriptUrl, documentUrl }: { scriptUrl: string | null; documentUrl: string }) {
  const mount = useRef<HTMLDivElement>(null);
  const [state, setState] = useState<"loading" | "ready" | "failed">("loading");

  useEffect(() => {
    let instance: ScalarInstance | undefined;
    let cancelled = false;
    if (!scriptUrl) {
      setState("failed");
      return;
    }
    if (!loadedWithDocsPolicy()) {
      window.location.reload();
      return;
    }
    loadScalar(scriptUrl).then(
      (Scalar) => {
        if (cancelled || !mount.current) return;
        instance = Scalar.createApiReference(mount.current, {
          url: documentUrl,
          layout: "modern",
          theme: "default",
          forceDarkModeState: "light",
          hideDarkModeToggle: true,
          withDefaultFonts: false, // fonts would come from Scalar's CDN
          telemetry: false,
          showDeveloperTools: "never",
          agent: { disabled: true }, // "Ask AI" talks to Scalar's servers
          mcp: { disabled: true },
          defaultOpenFirstTag: true,
          showOperationId: true,
          documentDownloadType: "json",
        });
        setState("ready");
      },
      () => !cancelled && setState("failed"),
    );
    return () => {
      cancelled = true;
      instance?.destroy();
    };
  }, [scriptUrl, documentUrl]);

  return (
    <>
      {state !== "ready" && (
        <div className="mx-auto max-w-3xl px-4 py-10 sm:px-6" data-testid="api-reference-fallback">
          <p className="text-slate-700">
            {state === "failed" ? "The interactive API reference could not be loaded." : "The interactive API reference is loading."}{" "}
            The same operations are described in the{" "}
            <a className="underline" href={documentUrl}>OpenAPI document</a> and, with recorded examples, in the{" "}
            <a className="underline" href="/docs/guides/api">API guide</a>.
          </p>
        </div>
      )}
      {/* Scalar owns this element's children: React never renders into it. */}
      <div ref={mount} data-testid="api-reference" />
    </>
  );
}
