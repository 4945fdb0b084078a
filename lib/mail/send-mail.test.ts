import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startSmtpCapture } from "@/tests/smtp-capture";

// The upgraded nodemailer (10.x) through the one call the service makes: createTransport(url) + sendMail.
const dir = fs.mkdtempSync(path.join(os.tmpdir(), "prs-mail-"));
let capture: Awaited<ReturnType<typeof startSmtpCapture>>;
let sendMail: typeof import("./send-mail").sendMail;

beforeAll(async () => {
  capture = await startSmtpCapture(path.join(dir, "inbox"));
  process.env.DATA_DIR = path.join(dir, "data");
  process.env.SMTP_URL = `smtp://127.0.0.1:${capture.port}`;
  process.env.MAIL_FROM = "Proof Records <no-reply@prs.example>";
  ({ sendMail } = await import("./send-mail"));
});
afterAll(async () => {
  await capture.close();
  fs.rmSync(dir, { recursive: true, force: true });
});

describe("sendMail over SMTP", () => {
  it("delivers a plain-text mail to the one recipient, with sender, subject and body intact", async () => {
    await sendMail({ to: "you@example.com", subject: "Confirm your address — Proof Records", text: "Line one\nhttps://prs.example/confirm?token=abc" });
    const [file] = fs.readdirSync(path.join(dir, "inbox"));
    const eml = fs.readFileSync(path.join(dir, "inbox", file!), "utf8");
    expect(eml).toMatch(/^X-Envelope-To: you@example\.com\r\n/);
    expect(eml).toMatch(/^From: Proof Records <no-reply@prs\.example>$/m);
    expect(eml).toMatch(/^To: you@example\.com$/m);
    expect(eml).toMatch(/^Subject: =\?UTF-8\?/m); // the dash is encoded as RFC 2047
    expect(eml).toContain("https://prs.example/confirm?token=abc");
  });
});
