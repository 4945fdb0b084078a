import type { Metadata } from "next";
import "./globals.css";

export const metadata: Metadata = {
  title: { default: "Proof Records", template: "%s · Proof Records" },
  description: "Signed, verifiable records about companies, domains, wallets, payments and agents.",
};

export default function RootLayout({ children }: { children: React.ReactNode }) {
  return (
    <html lang="en">
      <body className="min-h-screen bg-slate-50 text-slate-900 antialiased">{children}</body>
    </html>
  );
}
