/** No way back from these (CONTRACT lifecycle table): the portal form must carry an explicit confirmation. */
export const IRREVERSIBLE: readonly string[] = ["revoke", "expire", "supersede"];
