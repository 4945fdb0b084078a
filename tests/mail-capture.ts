import fs from "node:fs";
import path from "node:path";

/**
 * Reading the mails the SMTP capture (tests/smtp-capture.ts) wrote: shared by the API tests
 * (tests/portal-client.ts) and the Playwright helpers (e2e/helpers.ts).
 */

/** Capture files are `<ms>-<n>.eml`; n counts up, so it orders them. */
const order = (f: string) => Number(/-(\d+)\.eml$/.exec(f)?.[1] ?? -1);

/** Undo quoted-printable soft breaks and escapes (nodemailer wraps long lines). */
export const decodeQp = (s: string) =>
  s.replace(/=\r?\n/g, "").replace(/=([0-9A-F]{2})/g, (_, h: string) => String.fromCharCode(parseInt(h, 16)));

const mailsNewestFirst = (mailDir: string) =>
  (fs.existsSync(mailDir) ? fs.readdirSync(mailDir) : []).sort((a, b) => order(b) - order(a));

/**
 * The newest `pathname?token=…` link mailed to `to` that `skip` does not refuse. Waits up
 * to 15 s: some mails go out after the answer.
 */
export async function mailedLinkIn(mailDir: string, to: string, pathname: string, skip: (link: string) => boolean = () => false): Promise<string> {
  const re = new RegExp(`https?://\\S+${pathname.replace(/[/.]/g, "\\$&")}\\?token=[A-Za-z0-9._%-]+`, "g");
  const deadline = Date.now() + 15_000;
  for (;;) {
    for (const f of mailsNewestFirst(mailDir)) {
      const raw = fs.readFileSync(path.join(mailDir, f), "utf8");
      if (!raw.startsWith(`X-Envelope-To: ${to}\r\n`)) continue;
      const link = decodeQp(raw).match(re)?.find((l) => !skip(l));
      if (link) return link;
    }
    if (Date.now() > deadline) throw new Error(`no mail with a ${pathname} link for ${to} in ${mailDir}`);
    await new Promise((r) => setTimeout(r, 200));
  }
}

/** The whole text of the newest mail to `to` whose subject matches. */
export function mailTo(mailDir: string, to: string, subject: RegExp): string | undefined {
  return mailsNewestFirst(mailDir)
    .map((f) => decodeQp(fs.readFileSync(path.join(mailDir, f), "utf8")))
    .find((m) => m.startsWith(`X-Envelope-To: ${to}\r\n`) && subject.test(m));
}

/** The whole text of every mail to `to`, newest first. */
export function mailsTo(mailDir: string, to: string): string[] {
  return mailsNewestFirst(mailDir)
    .map((f) => decodeQp(fs.readFileSync(path.join(mailDir, f), "utf8")))
    .filter((m) => m.startsWith(`X-Envelope-To: ${to}\r\n`));
}
