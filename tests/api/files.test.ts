import { createHash } from "node:crypto";
import { describe, expect, it } from "vitest";
import { baseUrl, call, newAccount } from "../helpers";
import { PDF, upload } from "../uploads";

/**
 * Documents for reviewers (CONTRACT "Documents"): POST /api/v1/files takes PDF, PNG and JPEG
 * by their content only, at most 10 MiB; their metadata is for the owning account only, and
 * their bytes are never public (only the owner's portal session and reviewers read them).
 */
const PNG = Buffer.concat([Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]), Buffer.alloc(32)]);
const JPEG = Buffer.concat([Buffer.from([0xff, 0xd8, 0xff, 0xe0]), Buffer.alloc(32)]);

describe("POST /api/v1/files", () => {
  it("stores a PDF and answers its metadata (201); the owner reads it back, the bytes never", async () => {
    const { sandboxKey } = await newAccount("files");
    const r = await upload(sandboxKey, PDF, "extract.pdf");
    expect(r.status, r.text).toBe(201);
    expect(r.body).toEqual({
      object: "file", id: expect.stringMatching(/^file_[0-9a-z]{24}$/), filename: "extract.pdf", content_type: "application/pdf",
      size_bytes: PDF.byteLength, sha256: createHash("sha256").update(PDF).digest("hex"), created_at: expect.any(String),
    });
    const got = await call("GET", `/api/v1/files/${r.body.id}`, { key: sandboxKey });
    expect(got.status, got.text).toBe(200);
    expect(got.body).toEqual(r.body);
  });

  it("decides the type by content: a PNG and a JPEG declared as PDFs are stored as what they are", async () => {
    const { sandboxKey } = await newAccount("files");
    expect((await upload(sandboxKey, PNG, "scan.pdf")).body.content_type).toBe("image/png");
    expect((await upload(sandboxKey, JPEG, "photo.pdf")).body.content_type).toBe("image/jpeg");
  });

  it("refuses a text file named .pdf (422 unsupported_file_type), and an empty one", async () => {
    const { sandboxKey } = await newAccount("files");
    const r = await upload(sandboxKey, Buffer.from("This is not a PDF, whatever the name says.\n"), "invoice.pdf");
    expect(r.status, r.text).toBe(422);
    expect(r.body.error).toMatchObject({ code: "unsupported_file_type", param: "file" });
    const html = await upload(sandboxKey, Buffer.from("<html><script>alert(1)</script></html>"), "page.png", "image/png");
    expect(html.body.error.code).toBe("unsupported_file_type");
    expect((await upload(sandboxKey, new Uint8Array(), "empty.pdf")).body.error.code).toBe("unsupported_file_type");
  });

  it("refuses more than 10 MiB (413 file_too_large) and takes exactly 10 MiB", async () => {
    const { sandboxKey } = await newAccount("files");
    const big = Buffer.concat([PDF, Buffer.alloc(10 * 1024 * 1024 + 1 - PDF.byteLength, 0x20)]);
    const r = await upload(sandboxKey, big, "big.pdf");
    expect(r.status, r.text).toBe(413);
    expect(r.body.error.code).toBe("file_too_large");
    const max = await upload(sandboxKey, big.subarray(0, 10 * 1024 * 1024), "max.pdf");
    expect(max.status, max.text).toBe(201);
    expect(max.body.size_bytes).toBe(10 * 1024 * 1024);
  });

  it("needs a key, a multipart body and a `file` part", async () => {
    expect((await upload(undefined, PDF, "a.pdf")).body.error.code).toBe("missing_api_key");
    const { sandboxKey } = await newAccount("files");
    const json = await call("POST", "/api/v1/files", { key: sandboxKey, body: { file: "JVBERi0=" } });
    expect(json.status).toBe(415);
    const form = new FormData();
    form.append("document", new Blob([new Uint8Array(PDF)]), "a.pdf");
    const res = await fetch(`${baseUrl()}/api/v1/files`, { method: "POST", headers: { Authorization: `Bearer ${sandboxKey}` }, body: form });
    expect(res.status).toBe(422);
    expect((await res.json()).error).toMatchObject({ code: "missing_field", param: "file" });
  });
});

describe("who can read a file", () => {
  it("another account gets 404 file_not_found for its metadata, as for an unknown id", async () => {
    const owner = await newAccount("files");
    const other = await newAccount("files");
    const { body } = await upload(owner.sandboxKey, PDF, "mine.pdf");
    const r = await call("GET", `/api/v1/files/${body.id}`, { key: other.sandboxKey });
    expect(r.status, r.text).toBe(404);
    expect(r.body.error).toMatchObject({ code: "file_not_found", param: "id" });
    expect((await call("GET", "/api/v1/files/file_000000000000000000000000", { key: owner.sandboxKey })).body.error.code).toBe("file_not_found");
    expect((await call("GET", `/api/v1/files/${body.id}`)).status).toBe(401);
  });

  it("the bytes are not public: no route serves them without the owner's session or a reviewer's", async () => {
    const { sandboxKey } = await newAccount("files");
    const { body } = await upload(sandboxKey, PDF, "secret.pdf");
    for (const p of [`/organisation/files/${body.id}`, `/review/organisations/orv_00000000000000000000/files/${body.id}`, `/api/v1/files/${body.id}/content`]) {
      const res = await fetch(`${baseUrl()}${p}`, { redirect: "manual" });
      expect(res.status, p).toBe(404);
      expect(await res.text(), p).not.toContain("%PDF");
    }
    // With the API key: metadata only.
    const meta = await call("GET", `/api/v1/files/${body.id}`, { key: sandboxKey });
    expect(meta.text).not.toContain("%PDF");
  });
});
