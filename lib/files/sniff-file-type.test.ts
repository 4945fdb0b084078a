import { describe, expect, it } from "vitest";
import { sniffFileType } from "./sniff-file-type";

const bytes = (...b: (number | string)[]) => new Uint8Array(b.flatMap((x) => (typeof x === "string" ? [...Buffer.from(x)] : [x])));

describe("sniffFileType", () => {
  it("knows PDF, PNG and JPEG by their first bytes", () => {
    expect(sniffFileType(bytes("%PDF-1.7\n"))).toBe("application/pdf");
    expect(sniffFileType(bytes(0x89, "PNG", 0x0d, 0x0a, 0x1a, 0x0a, 0))).toBe("image/png");
    expect(sniffFileType(bytes(0xff, 0xd8, 0xff, 0xe0))).toBe("image/jpeg");
  });
  it("refuses everything else, whatever it is called", () => {
    expect(sniffFileType(bytes("just text, named invoice.pdf"))).toBeNull();
    expect(sniffFileType(bytes(" %PDF-1.7"))).toBeNull();
    expect(sniffFileType(bytes("<svg/>"))).toBeNull();
    expect(sniffFileType(new Uint8Array())).toBeNull();
  });
});
