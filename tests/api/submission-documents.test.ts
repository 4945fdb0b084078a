import { describe, expect, it } from "vitest";
import { call, newAccount } from "../helpers";
import { portalPage, serverAction, staffSession } from "../portal-client";
import { withServerDb } from "../server-db";
import { PDF, upload } from "../uploads";

/**
 * Documents with a reviewed submission (CONTRACT "Documents"): `documents` names files of the
 * account (POST /api/v1/files); they are kept with the submission privately — in no answer,
 * status, event or signed payload — shown to reviewers inline and to nobody else, and kept
 * 90 days from the decision.
 */

const reviewed = (documents: string[]) => ({
  subject: "Harbour Rentals Ltd", claim_type: "bank_account_confirmation", claim: "Harbour Rentals Ltd holds the account GB33 BUKB 2020 1555 5555 55.",
  source_name: "Bank letter", source_url: "https://bank.example/letters/42", checked_at: new Date(Date.now() - 3_600_000).toISOString(), documents,
});

describe("documents with a reviewed submission", () => {
  it("are kept privately with the submission, shown to a reviewer inline, and refused when they are not the account's", async () => {
    const owner = await newAccount("docs");
    const file = await upload(owner.sandboxKey, PDF, "bank-letter.pdf");
    expect(file.status, file.text).toBe(201);
    const sub = await call("POST", "/api/v1/records", { key: owner.sandboxKey, body: reviewed([file.body.id]) });
    expect(sub.status, sub.text).toBe(202);
    // Never in the answer (private evidence stays private).
    expect(sub.text).not.toContain(file.body.id);
    expect(sub.text).not.toContain(file.body.sha256);

    // Another account's file: refused, naming it; nothing is submitted.
    const stranger = await newAccount("docs");
    const before = (await call("GET", "/api/v1/records", { key: stranger.sandboxKey })).body.data.length;
    const foreign = await call("POST", "/api/v1/records", { key: stranger.sandboxKey, body: reviewed([file.body.id]) });
    expect(foreign.status, foreign.text).toBe(422);
    expect(foreign.body.error).toMatchObject({ code: "invalid_document", param: "documents[0]" });
    expect((await call("GET", "/api/v1/records", { key: stranger.sandboxKey })).body.data.length).toBe(before);
    const malformed = await call("POST", "/api/v1/records", { key: stranger.sandboxKey, body: reviewed(["not-a-file"]) });
    expect(malformed.status).toBe(422);
    expect(malformed.body.error.param).toBe("documents[0]");

    // The reviewer console shows the document inline; its bytes are served to reviewers only.
    const rev = await staffSession("reviewer", "docrev");
    const id = sub.body.verification_id as string;
    const page = await portalPage(rev, `/review/${id}`);
    expect(page.status).toBe(200);
    expect(page.html).toContain(`data-file-id="${file.body.id}"`);
    expect(page.html).toContain("bank-letter.pdf");
    const bytes = await fetch(`${rev.base}/review/${id}/files/${file.body.id}`, { headers: { cookie: rev.cookie!, "x-forwarded-for": rev.ip } });
    expect(bytes.status).toBe(200);
    expect(bytes.headers.get("content-type")).toBe("application/pdf");
    expect(bytes.headers.get("content-security-policy")).toMatch(/^sandbox/);
    expect(Buffer.from(await bytes.arrayBuffer()).equals(PDF)).toBe(true);
    expect((await fetch(`${rev.base}/review/${id}/files/${file.body.id}`)).status).toBe(404); // no session
    expect((await fetch(`${rev.base}/review/${id}/files/file_0000000000000000000000000a`, { headers: { cookie: rev.cookie!, "x-forwarded-for": rev.ip } })).status).toBe(404);

    // The decision keeps the document 90 days from then.
    const decided = await serverAction(rev, `/review/${id}`, ["app/review/actions.ts", "decideAction"], {
      form: { id, decision: "approve", checklist: ["source_opened", "subject_matches", "claim_supported", "checked_at_plausible"] },
    });
    expect(decided.status).toBe(200);
    const status = await call("GET", `/api/v1/records/${id}`, { key: owner.sandboxKey });
    expect(status.body.status).toBe("active");
    expect(status.text).not.toContain(file.body.id);
    const [row] = await withServerDb((sql) => sql`select used_by, delete_after from files where id = ${file.body.id}`);
    expect(row!.used_by).toBe(id);
    const days = (new Date(row!.delete_after).getTime() - Date.now()) / 86_400_000;
    expect(days).toBeGreaterThan(89.9);
    expect(days).toBeLessThan(90.1);
  });
});
