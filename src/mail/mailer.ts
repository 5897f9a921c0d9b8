import nodemailer, { type Transporter } from 'nodemailer';
import type { Config } from '../config.js';

/** One message: plain text always, HTML optionally. */
export interface MailMessage {
  to: string;
  subject: string;
  text: string;
  html?: string;
}

/** Sends mail through SMTP_URL; `null` from `mailerOf` when no SMTP server is configured. */
export interface Mailer {
  send(message: MailMessage): Promise<void>;
  close(): void;
}

const transports = new Map<string, Transporter>();

/** The mailer of these settings (one pooled transport per SMTP_URL), or null when SMTP_URL is unset. */
export function mailerOf(config: Pick<Config, 'SMTP_URL' | 'SMTP_FROM'>): Mailer | null {
  const url = config.SMTP_URL;
  if (!url) return null;
  let transport = transports.get(url);
  if (!transport) {
    transport = nodemailer.createTransport(url);
    transports.set(url, transport);
  }
  const t = transport;
  return {
    async send(message) {
      await t.sendMail({ from: config.SMTP_FROM, ...message });
    },
    close() {
      t.close();
      transports.delete(url);
    },
  };
}
