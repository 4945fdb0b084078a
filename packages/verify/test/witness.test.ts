import { describe, expect, it } from "vitest";
import { testCosigner } from "../../../tests/witness";
import { openNote, parseCosignerKey, parseVerifierKey, witnessVerdict } from "../src/note.js";

/*
 * C2SP vectors for prs-verify: signed-note.md's example, and Ed25519 cosignature/v1 lines
 * made here with node:crypto from tlog-cosignature's recipe (tests/vectors/witness has the
 * same for the server, the SDK and the badge).
 */
const VKEY = "example.com/foo+530d903a+AekyeRrm56hApGFkyQR4ZCbV54Id2LKaANYcrnKv3U2k";
const TEXT = "This is an example message.\n";
const NOTE = `${TEXT}\n\u2014 example.com/foo Uw2QOkn8srV1yJGh2VYRlL1Tnagv1YEq6TfXppzi2ONncAlTgK7Ztg1ERYNZXsYjOBH3mFXmRKuwHjG1Yu72IneyaQM=\n`;

describe("signed-note.md's example", () => {
  it("opens with the example key, and not tampered", () => {
    const key = parseVerifierKey(VKEY);
    expect(openNote(NOTE, key)).toEqual({ ok: true, text: TEXT });
    expect(openNote(NOTE.replace("example message", "exemplary message"), key).ok).toBe(false);
  });
});


const BODY = "example.com/behind-the-sofa\n20852163\nCsUYapGGPo4dkMgIAUqom/Xajj7h2fB2MPA3j2jxq2I=\n";
const LOG_LINE = "\u2014 example.com/behind-the-sofa Az3grlgtzPICa5OS8npVmf1Myq/5IZniMp+ZJurmRDeOoRDe4URYN7u5/Zhcyv2q1gGzGku9nTo+zyWE+xeMcTOAYQ8=";
const note = (...lines: string[]) => `${BODY}\n${[LOG_LINE, ...lines].join("\n")}\n`;

describe("witness policy (Ed25519 cosignature/v1)", () => {
  const w1 = testCosigner("witness.example.com/w1");
  const w2 = testCosigner("witness.example.com/w2");
  const stranger = testCosigner("witness.example.com/w3");
  const t = 1679315147;
  const policy = { witnesses: [parseCosignerKey(w1.vkey), parseCosignerKey(w2.vkey)], quorum: 2 };

  it("accepts the quorum of valid cosignatures", () => {
    expect(witnessVerdict(note(w1.cosign(BODY, t), w2.cosign(BODY, t + 1)), policy)).toMatchObject({ ok: true });
  });

  it("counts one witness's duplicate lines once and ignores a stranger's", () => {
    const line = w1.cosign(BODY, t);
    expect(witnessVerdict(note(line, line, stranger.cosign(BODY, t)), policy))
      .toEqual({ ok: false, detail: expect.stringMatching(/^1 valid cosignature of the 2 trusted witnesses .*fewer than the quorum of 2/) });
  });

  it("refuses a trusted witness's line over another checkpoint", () => {
    const forged = w1.cosign(BODY.replace("20852163", "20852164"), t);
    expect(witnessVerdict(note(forged, w2.cosign(BODY, t)), policy)).toEqual({ ok: false, detail: expect.stringMatching(/does not verify/) });
  });

  it("refuses a note key as a witness key, and a witness key with the wrong ID", () => {
    expect(() => parseCosignerKey(VKEY)).toThrow(/not an Ed25519 cosignature key/);
    expect(() => parseCosignerKey(w1.vkey.replace(/\+[0-9a-f]{8}\+/, "+00000000+"))).toThrow(/does not match/);
  });
});
