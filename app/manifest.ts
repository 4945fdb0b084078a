import type { MetadataRoute } from "next";

/** /manifest.webmanifest: name and icons for "add to home screen" (icons: scripts/make-icons.mjs). */
export default function manifest(): MetadataRoute.Manifest {
  return {
    name: "Proof Records",
    short_name: "Proof Records",
    description: "Signed, verifiable records about companies, domains, wallets, payments and agents.",
    start_url: "/",
    display: "browser",
    background_color: "#f8fafc",
    theme_color: "#0f172a",
    icons: [
      { src: "/icon.svg", type: "image/svg+xml", sizes: "any" },
      { src: "/icon-192.png", type: "image/png", sizes: "192x192" },
      { src: "/icon-512.png", type: "image/png", sizes: "512x512" },
    ],
  };
}
