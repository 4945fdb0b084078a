/** What a reviewer confirms before approving an organisation (CONTRACT "The speaking account"). */
export type VerificationChecklistItem = { key: string; label: string };

export function verificationChecklist(hasLei: boolean): VerificationChecklistItem[] {
  return [
    hasLei
      ? { key: "lei_active", label: "The LEI register lists the LEI as ISSUED and the entity as ACTIVE (answer shown above)." }
      : { key: "legal_name_from_documents", label: "A document (registry extract, or the trader's identity document) gives the legal or registered trading name typed below." },
    { key: "document_names_applicant", label: "A document names the applicant as able to act for the entity." },
    { key: "independent_channel", label: "I reached the entity through a channel the applicant did not supply (registered address, published phone number) and it confirmed the application." },
  ];
}
