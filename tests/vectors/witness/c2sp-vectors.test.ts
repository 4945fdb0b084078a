import { describe, expect, it } from "vitest";
import { testCosigner } from "../../witness";
import * as sdk from "../../../packages/sdk/src/checkpoint";
import * as badge from "@/lib/public/embed/witness-policy";
import { checkCosignatureLine, parseCosignerVkey } from "../../../lib/tlog/cosignature";
import { noteKeyHash } from "../../../lib/tlog/note";

/*
 * C2SP test vectors through every note and cosignature verifier we ship: the server
 * (lib/tlog), the SDK and the embed badge here; prs-verify in packages/verify/test/witness.test.ts. The signed-note
 * example is the spec's own (signed-note.md); the cosignatures are made here with node:crypto
 * from tlog-cosignature's recipe, independently of the code under test.
 */
const VKEY = "example.com/foo+530d903a+AekyeRrm56hApGFkyQR4ZCbV54Id2LKaANYcrnKv3U2k";
const TEXT = "This is an example message.\n";
const LINE = "\u2014 example.com/foo Uw2QOkn8srV1yJGh2VYRlL1Tnagv1YEq6TfXppzi2ONncAlTgK7Ztg1ERYNZXsYjOBH3mFXmRKuwHjG1Yu72IneyaQM=\n";
const NOTE = `${TEXT}\n${LINE}`;
const TAMPERED = NOTE.replace("example message", "exemplary message");

describe("signed-note.md's example", () => {
  it("the server's key hash for the example key is the vkey's 530d903a", () => {
    const key = Buffer.from(VKEY.split("+")[2]!, "base64").subarray(1);
    expect(noteKeyHash("example.com/foo", key).toString("hex")).toBe("530d903a");
  });

  it("the SDK opens it, and refuses it tampered", async () => {
    expect(await sdk.openNote(NOTE, VKEY)).toBe(TEXT);
    expect(await sdk.openNote(TAMPERED, VKEY)).toBeNull();
  });

  it("the badge opens it, and refuses it tampered", async () => {
    expect(await badge.openNote(NOTE, VKEY)).toBe(TEXT);
    expect(await badge.openNote(TAMPERED, VKEY)).toBeNull();
  });
});


// The checkpoint of tlog-cosignature.md's example, with the log's line from that example.
const BODY = "example.com/behind-the-sofa\n20852163\nCsUYapGGPo4dkMgIAUqom/Xajj7h2fB2MPA3j2jxq2I=\n";
const LOG_LINE = "\u2014 example.com/behind-the-sofa Az3grlgtzPICa5OS8npVmf1Myq/5IZniMp+ZJurmRDeOoRDe4URYN7u5/Zhcyv2q1gGzGku9nTo+zyWE+xeMcTOAYQ8=";

describe("Ed25519 cosignature/v1, computed independently", () => {
  const w1 = testCosigner("witness.example.com/w1");
  const w2 = testCosigner("witness.example.com/w2");
  const stranger = testCosigner("witness.example.com/w3");
  const t = 1679315147;
  const good = w1.cosign(BODY, t);
  const forged = w1.cosign(BODY.replace("20852163", "20852164"), t); // w1's signature, over another tree
  const note = (...lines: string[]) => `${BODY}\n${[LOG_LINE, ...lines].join("\n")}\n`;

  it("the server accepts the witness's line, refuses one over another checkpoint, ignores another witness's", () => {
    const key = parseCosignerVkey(w1.vkey);
    expect(checkCosignatureLine(good, BODY, key)).toEqual({ kind: "ok", signedAt: t });
    expect(checkCosignatureLine(forged, BODY, key).kind).toBe("bad");
    expect(checkCosignatureLine(w2.cosign(BODY, t), BODY, key).kind).toBe("other");
    expect(() => parseCosignerVkey(VKEY)).toThrow(/type 0x04/); // a note key (0x01) is no witness key
  });

  it("the SDK and the badge agree", async () => {
    const vkeys = [w1.vkey, w2.vkey];
    const logKeyless = { witnesses: await Promise.all(vkeys.map((v) => badge.parseVkey(v, 0x04))) as badge.NoteKey[], quorum: 2 };
    expect(await badge.cosignatureCount(note(good, w2.cosign(BODY, t)), logKeyless)).toBe(2);
    expect(await badge.cosignatureCount(note(good, good, stranger.cosign(BODY, t)), logKeyless)).toBe(1);
    expect(await badge.cosignatureCount(note(forged), logKeyless)).toBe(-1);
    // The SDK checks the log's signature too: the spec's example log key is not published, so only its cosignature parsing is checked here.
    const r = await sdk.verifyCheckpoint(note(good), { logKey: VKEY, witnesses: vkeys, quorum: 1 });
    expect(r).toMatchObject({ valid: false, code: "bad_signature" }); // the checkpoint is of another origin than example.com/foo
  });

  it("the badge's policy: a status's entry is witnessed only against the checkpoint whose root it is proven against, never while pending", async () => {
    const policy = { witnesses: await Promise.all([w1.vkey, w2.vkey].map((v) => badge.parseVkey(v, 0x04))) as badge.NoteKey[], quorum: 2 };
    const root = BODY.split("\n")[2];
    const both = note(good, w2.cosign(BODY, t));
    expect(await badge.witnessed({ checkpoint: both, root_hash: root }, policy)).toBe(true);
    expect(await badge.witnessed({ checkpoint: note(good), root_hash: root }, policy)).toBe(false);
    expect(await badge.witnessed({ checkpoint: both, root_hash: "AAAA" + root!.slice(4) }, policy)).toBe(false);
    expect(await badge.witnessed(null, policy)).toBe(false);
  });
});
