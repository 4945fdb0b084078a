import fs from "node:fs";
import path from "node:path";
import nodemailer, { type Mail } from "nodemailer";
import { getEnv } from "@/lib/env";
import { log } from "@/lib/log/logger";

let transport: Mail | undefined;

/**
 * Send a plain-text mail through SMTP_URL. Without SMTP (development), the message is
 * written to DATA_DIR/mail/ and the log, so nothing is silently lost.
 */
export async function sendMail(m: { to: string; subject: string; text: string }) {
  const env = getEnv();
  if (!env.SMTP_URL) {
    const dir = path.join(env.dataDir, "mail");
    fs.mkdirSync(dir, { recursive: true });
    const file = path.join(dir, `${new Date().toISOString().replace(/[:.]/g, "-")}-${m.to.replace(/[^a-z0-9@.-]/gi, "_")}.txt`);
    fs.writeFileSync(file, `From: ${env.MAIL_FROM}\nTo: ${m.to}\nSubject: ${m.subject}\n\n${m.text}\n`);
    log().info({ to: m.to, subject: m.subject, file }, "mail written to a file (no SMTP_URL)");
    return;
  }
  transport ??= nodemailer.createTransport(env.SMTP_URL);
  await transport.sendMail({ from: env.MAIL_FROM, to: m.to, subject: m.subject, text: m.text });
}
