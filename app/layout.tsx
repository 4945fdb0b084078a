import type { Metadata } from "next";
import { connection } from "next/server";
import "./globals.css";

export const metadata: Metadata = {
  title: { default: "Proof Records", template: "%s · Proof Records" },
  description: "Signed, verifiable records about companies, domains, wallets, payments and agents.",
};

/**
 * Every page renders per request: Next puts the request's CSP nonce (proxy.ts) on its
 * scripts only while rendering, so a page prerendered at build time would carry none and
 * its scripts would be refused.
 */
export default async function RootLayout({ children }: { children: React.ReactNode }) {
  await connection();
  return (
    <html lang="en">
      <body className="min-h-screen bg-slate-50 text-slate-900 antialiased">{children}</body>
    </html>
  );
}
