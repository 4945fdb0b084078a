"use client";

import { useEffect, useState } from "react";
import { secondaryButtonClass } from "./classes";

type CopyState = "idle" | "copied" | "selected" | "failed";

/** Select the text of `el` in the page, so Ctrl+C / ⌘C copies it. */
function selectText(el: HTMLElement) {
  const selection = window.getSelection();
  if (!selection) return false;
  const range = document.createRange();
  range.selectNodeContents(el);
  selection.removeAllRanges();
  selection.addRange(range);
  return true;
}

/** The old way, for pages served over plain http on a LAN address (no Clipboard API there). */
function copyBySelection(el: HTMLElement | null, value: string): CopyState {
  if (el && selectText(el)) {
    try {
      return document.execCommand("copy") ? "copied" : "selected";
    } catch {
      return "selected";
    }
  }
  const area = document.createElement("textarea");
  area.value = value;
  area.setAttribute("readonly", "");
  area.style.position = "fixed";
  area.style.opacity = "0";
  document.body.appendChild(area);
  area.select();
  try {
    return document.execCommand("copy") ? "copied" : "failed";
  } catch {
    return "failed";
  } finally {
    area.remove();
  }
}

/**
 * "Copy" beside a secret or snippet shown on the page. Uses the Clipboard API (secure
 * contexts: https, localhost, 127.0.0.1); where the browser has none or refuses, it selects
 * the shown text (`targetId`, the element showing `value`) so the user can copy it by hand.
 * Says "Copied" on the button for a few seconds and tells screen readers what happened.
 */
export function CopyButton({ value, label, targetId }: { value: string; label: string; targetId?: string }) {
  const [state, setState] = useState<CopyState>("idle");
  useEffect(() => {
    if (state !== "copied") return;
    const t = setTimeout(() => setState("idle"), 3000);
    return () => clearTimeout(t);
  }, [state]);
  async function copy() {
    const el = targetId ? document.getElementById(targetId) : null;
    try {
      if (!navigator.clipboard) throw new Error("no Clipboard API");
      await navigator.clipboard.writeText(value);
      setState("copied");
    } catch {
      setState(copyBySelection(el, value));
    }
  }
  return (
    <span className="inline-flex flex-wrap items-center gap-2">
      <button type="button" className={secondaryButtonClass} onClick={copy} aria-label={`Copy ${label}`} data-copy-state={state}>
        {state === "copied" ? "Copied" : "Copy"}
      </button>
      {/* A polite live region, not role=status: the page's own status messages stay the only "status" there. */}
      <span aria-live="polite" className="text-xs text-slate-600">
        {state === "copied" ? `${label.charAt(0).toUpperCase()}${label.slice(1)} copied to the clipboard.`
          : state === "selected" ? "Selected: press Ctrl+C (⌘C on a Mac) to copy it."
          : state === "failed" ? "This browser refused to copy: select the text and copy it by hand." : ""}
      </span>
    </span>
  );
}
