import Link from "next/link";
import { UnverifiedLinkWarning } from "@/components/not-found-page";
import { PortalHeader, PortalMain } from "@/components/portal";

export default function RecordNotFound() {
  return (
    <>
      <PortalHeader />
      <PortalMain>
        <h1 className="text-2xl font-semibold">Not found</h1>
        <p className="mt-2 text-slate-700" data-testid="record-not-found">There is no record with this id in your account.</p>
        <UnverifiedLinkWarning />
        <p className="mt-4 flex gap-4 text-sm">
          <Link className="underline" href="/records">Back to your records</Link>
          <Link className="underline" href="/" data-testid="way-home">Home</Link>
        </p>
      </PortalMain>
    </>
  );
}
