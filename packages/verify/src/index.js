// The library behind the prs-verify command, for programs that want the same checks.
export { EMPTY_ROOT, CompactRange, consistencyProof, inclusionProof, leafHash, nodeHash, rootFromInclusionProof, rootOf, subtreeHash, verifyConsistency, verifyInclusion } from "./merkle.js";
export { checkWitnesses, cosignedMessage, cosignerKeyId, formatVerifierKey, keyHash, openNote, parseCheckpointText, parseCosignerKey, parseVerifierKey, signNote, signatureLine, verifyCheckpoint, witnessVerdict } from "./note.js";
export { publicKeyProblem, verifyStrict } from "./ed25519.js";
export { canonicalBytes, checkSignedAnswer, jwksKey } from "./jwks.js";
export { parseLeaf } from "./leaf.js";
export { TileReader, entriesPath, indexPath, parseBundle, tilePath, tileWidth } from "./tiles.js";
export { Report } from "./report.js";
export { main } from "./cli.js";
