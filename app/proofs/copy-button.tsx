"use client";

import { useEffect, useState } from "react";
import { secondaryButtonClass } from "@/components/portal";

/**
 * Copies `value` with the Clipboard API (secure contexts only: https, localhost, 127.0.0.1).
 * Says "Copied" for a few seconds, or how to copy by hand where the browser refuses.
 */
export function CopyButton({ value, label }: { value: string; label: string }) {
  const [state, setState] = useState<"idle" | "copied" | "failed">("idle");
  useEffect(() => {
    if (state !== "copied") return;
    const t = setTimeout(() => setState("idle"), 3000);
    return () => clearTimeout(t);
  }, [state]);
  async function copy() {
    try {
      await navigator.clipboard.writeText(value);
      setState("copied");
    } catch {
      setState("failed");
    }
  }
  return (
    <span className="inline-flex items-center gap-2">
      <button type="button" className={secondaryButtonClass} onClick={copy} aria-label={`Copy ${label}`}>
        {state === "copied" ? "Copied" : "Copy"}
      </button>
      <span role="status" className="text-xs text-slate-600">
        {state === "copied" ? `${label} copied to the clipboard.` : state === "failed" ? "This browser refused to copy: select the text and copy it by hand." : ""}
      </span>
    </span>
  );
}
