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

/**
 * Mail is sent while a request waits (the caller learns whether it went), so a dead or silent server must fail in
 * seconds, not in nodemailer's default two minutes.
 */
const TIMEOUTS = { connectionTimeout: 10_000, greetingTimeout: 10_000, socketTimeout: 20_000 };

const transports = new Map<string, Transporter>();

/** The mailer of these settings (one transport per SMTP_URL), or null when SMTP_URL is unset. */
export function mailerOf(config: Pick<Config, 'SMTP_URL' | 'SMTP_FROM'>): Mailer | null {
  const url = config.SMTP_URL;
  if (!url) return null;
  let transport = transports.get(url);
  if (!transport) {
    transport = nodemailer.createTransport({ url, ...TIMEOUTS });
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

/**
 * Why a message could not be sent, in a few words for the person who asked (no server address or credentials):
 * nodemailer's error code names the stage that failed.
 */
export function mailFailureReason(err: unknown): string {
  const code = (err as { code?: unknown })?.code;
  switch (code) {
    case 'ECONNECTION':
    case 'ETIMEDOUT':
    case 'ESOCKET':
    case 'EDNS':
      return `The mail server could not be reached (${code})`;
    case 'EAUTH':
    case 'ENOAUTH':
      return `The mail server refused the service's login (${code})`;
    case 'EENVELOPE':
      return `The mail server refused the address (${code})`;
    case 'EMESSAGE':
      return `The mail server refused the message (${code})`;
    case 'ETLS':
      return `The secure connection to the mail server failed (${code})`;
    default:
      return typeof code === 'string' ? `Sending failed (${code})` : 'Sending failed';
  }
}
