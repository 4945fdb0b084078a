/**
 * The badge's stylesheet, inside its shadow root. `:host` rules marked !important win over
 * the host page's rules on the element itself (CSS Scoping: for important declarations the
 * shadow context wins), so a page cannot hide, recolour or restyle the badge through its
 * element; the page's rules do not reach inside the shadow root at all.
 */
export const BADGE_CSS = `
:host{all:initial!important;display:inline-block!important;max-width:100%!important;vertical-align:middle!important;visibility:visible!important;opacity:1!important;filter:none!important;transform:none!important;clip-path:none!important;mix-blend-mode:normal!important;position:static!important}
.box{display:block}
.badge{box-sizing:border-box;display:flex;gap:10px;align-items:flex-start;min-width:15rem;max-width:24rem;padding:10px 12px;border:1px solid;border-left-width:5px;border-radius:10px;font:14px/1.35 system-ui,-apple-system,"Segoe UI",Roboto,"Helvetica Neue",Arial,sans-serif;color:#111827;background:#fff;text-decoration:none;text-align:left;direction:ltr;unicode-bidi:isolate}
a.badge:hover .cta{text-decoration:underline}
a.badge:focus-visible{outline:3px solid #2563eb;outline-offset:2px}
.mark{flex:none;width:22px;height:22px;margin-top:1px}
.mark svg{display:block;width:22px;height:22px;fill:none;stroke:currentColor;stroke-width:2;stroke-linecap:round;stroke-linejoin:round}
.body{display:block;min-width:0}
.title{display:block;font-weight:700}
.subject{display:block;font-weight:600;overflow-wrap:anywhere}
.detail{display:block;color:#374151;overflow-wrap:anywhere}
.selfname{display:inline;unicode-bidi:isolate;padding:0 4px;border:1px dashed #92400e;border-radius:4px;background:#fff;font-family:ui-monospace,SFMono-Regular,Menlo,Consolas,monospace;font-size:13px;color:#111827;white-space:pre-wrap}
.meta{display:block;margin-top:3px;font-size:12px;color:#4b5563}
.cta{display:block;font-size:12px;font-weight:600;color:#1d4ed8}
.good{border-color:#15803d;background:#f0fdf4}.good .mark,.good .title{color:#166534}
.bad{border-color:#b91c1c;background:#fef2f2}.bad .mark,.bad .title{color:#991b1b}
.caution{border-color:#b45309;background:#fffbeb}.caution .mark,.caution .title{color:#92400e}
.neutral{border-color:#6b7280;background:#f9fafb}.neutral .mark{color:#4b5563}
`;
