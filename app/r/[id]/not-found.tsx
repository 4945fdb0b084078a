import { PublicNotFound } from "@/components/not-found-page";

/** A certificate address with no issued record behind it (unknown, malformed, or never issued). */
export default function CertificateNotFound() {
  return (
    <PublicNotFound
      title="No such record"
      lead="Proof Records has no issued record with this id: it was never issued, it is still waiting for a reviewer, or the id is wrong."
    />
  );
}
