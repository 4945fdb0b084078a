import type { Metadata } from "next";
import { PublicNotFound } from "@/components/not-found-page";
import { RECORD_ID_RE } from "@/lib/ids";

export const metadata: Metadata = { title: "No such record", robots: { index: false } };

type Props = { searchParams: Promise<Record<string, string | string[] | undefined>> };

/**
 * Where the embed badge's "No such record" state links (lib/public/embed/badge.ts): a page that
 * exists (200), saying that the id the badge names is not an issued record and that whatever
 * the page showing it claims should be treated as unverified. The id is shown only when it is
 * well-formed (never arbitrary text from the query).
 */
export default async function NoSuchRecord({ searchParams }: Props) {
  const raw = (await searchParams).id;
  const id = typeof raw === "string" && RECORD_ID_RE.test(raw) ? raw : null;
  return (
    <PublicNotFound
      title="No such record"
      lead={`Proof Records has no issued record${id ? ` with the id ${id}` : " with this id"}. A badge or link naming it proves nothing: the record was never issued, is still waiting for a reviewer, or the id is wrong.`}
    />
  );
}
