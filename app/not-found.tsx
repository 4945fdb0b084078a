import type { Metadata } from "next";
import { PublicNotFound } from "@/components/not-found-page";

export const metadata: Metadata = { title: "Not found", robots: { index: false } };

export default function NotFound() {
  return <PublicNotFound title="Not found" lead="There is no page or issued record at this address." />;
}
