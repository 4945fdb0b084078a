/** Class names shared by the portal's pieces (plain strings: usable on the server and in "use client" islands). */

/**
 * The one layout grid of the portal, review and admin pages: the header's bar and every
 * page's content share this width and left edge.
 */
export const containerClass = "mx-auto w-full max-w-6xl px-4 sm:px-6";

export const inputClass =
  "mt-1 block w-full rounded border border-slate-300 bg-white px-3 py-2 text-slate-900 focus:border-slate-500 focus:outline-none aria-[invalid=true]:border-red-500";
export const buttonClass =
  "inline-flex items-center rounded bg-slate-900 px-4 py-2 text-sm font-medium text-white hover:bg-slate-700 disabled:cursor-not-allowed disabled:bg-slate-300 disabled:text-slate-600";
export const secondaryButtonClass =
  "inline-flex items-center rounded border border-slate-300 bg-white px-3 py-1.5 text-sm text-slate-800 hover:bg-slate-100 disabled:cursor-not-allowed disabled:opacity-50";
export const dangerButtonClass =
  "inline-flex items-center rounded bg-red-700 px-3 py-1.5 text-sm font-medium text-white hover:bg-red-800 disabled:cursor-not-allowed disabled:opacity-50";

/**
 * A data table: full width, left-aligned, cells spaced; on a phone each row becomes a block of
 * labelled lines (app/globals.css `.stacked-table`), so no column hides past the screen's edge.
 * Give every cell a `data-label` naming its column.
 */
export const tableClass = "stacked-table w-full text-left text-sm [&_td]:pr-4 [&_th]:pr-4";
