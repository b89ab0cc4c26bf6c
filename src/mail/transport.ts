// Where mail leaves: SMTP (SMTP_URL) through nodemailer, or .eml files under MAIL_DIR when no
// SMTP server is configured. The file transport is idempotent by construction: a mail is
// written to a temporary name and renamed to <id>.eml, so a resend after a crash replaces the
// same file instead of adding a second one.
import fs from 'node:fs/promises';
import path from 'node:path';
import nodemailer from 'nodemailer';

export interface OutgoingMail {
  id: string;
  messageId: string;
  from: string;
  to: string;
  subject: string;
  text: string;
  html: string;
  date: Date;
  /** Extra headers (a watch's List-Unsubscribe and List-Unsubscribe-Post). */
  headers?: Record<string, string>;
}

export interface MailTransport {
  send(mail: OutgoingMail): Promise<void>;
  close(): void;
}

function message(mail: OutgoingMail) {
  return { messageId: mail.messageId, from: mail.from, to: mail.to, subject: mail.subject, text: mail.text, html: mail.html, date: mail.date, ...(mail.headers ? { headers: mail.headers } : {}) };
}

export function smtpTransport(url: string, timeoutMs = 15000): MailTransport {
  const t = nodemailer.createTransport(url, {
    connectionTimeout: timeoutMs, greetingTimeout: timeoutMs, socketTimeout: timeoutMs * 2,
  } as never);
  return {
    async send(mail) {
      await t.sendMail(message(mail));
    },
    close: () => t.close(),
  };
}

export function fileTransport(dir: string): MailTransport {
  const render = nodemailer.createTransport({ streamTransport: true, buffer: true, newline: 'unix' });
  return {
    async send(mail) {
      const info = (await render.sendMail(message(mail))) as unknown as { message: Buffer };
      await fs.mkdir(dir, { recursive: true });
      const final = path.join(dir, `${mail.id.replace(/[^A-Za-z0-9._-]/g, '_')}.eml`);
      const tmp = `${final}.${process.pid}.tmp`;
      await fs.writeFile(tmp, info.message);
      await fs.rename(tmp, final);
    },
    close: () => render.close(),
  };
}

export function transportFor(smtpUrl: string | undefined, mailDir: string): MailTransport {
  return smtpUrl ? smtpTransport(smtpUrl) : fileTransport(mailDir);
}
