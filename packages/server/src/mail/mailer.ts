// Outgoing mail: SMTP through nodemailer when SMTP_URL is set, else the log plus the outbox table superusers read.
import nodemailer from 'nodemailer';
import type { Config } from '../config.js';
import type { Database } from '../db/client.js';
import type { Logger } from '../log.js';

export interface Mail {
  to: string;
  subject: string;
  text: string;
  html?: string;
}

/** The SMTP server refused a message; the route that sent it answers 502 (see routes/auth.ts). */
export class MailDeliveryError extends Error {
  constructor(readonly to: string) {
    super('The mail server did not accept the message; try again later');
    this.name = 'MailDeliveryError';
  }
}

export interface Mailer {
  /** 'smtp' delivers; 'outbox' logs the mail and keeps it for `GET /api/v1/admin/outbox`. */
  readonly mode: 'smtp' | 'outbox';
  /** Throws MailDeliveryError when the SMTP server refuses, so the caller's request fails visibly. */
  send(mail: Mail): Promise<void>;
}

export function createMailer(config: Pick<Config, 'smtpUrl' | 'mailFrom'>, database: Database, log: Logger): Mailer {
  if (config.smtpUrl) {
    const transport = nodemailer.createTransport(config.smtpUrl);
    return {
      mode: 'smtp',
      async send(mail) {
        try {
          await transport.sendMail({ from: config.mailFrom, ...mail });
          log.info('mail sent', { to: mail.to, subject: mail.subject });
        } catch (err) {
          log.error('mail failed', { to: mail.to, subject: mail.subject, err });
          throw new MailDeliveryError(mail.to);
        }
      },
    };
  }
  return {
    mode: 'outbox',
    async send(mail) {
      // No SMTP: the log and the outbox are how a local user finishes a sign-in.
      log.info(`mail (not sent, SMTP_URL unset) to ${mail.to}: ${mail.subject}\n${mail.text}`);
      await database.query('INSERT INTO outbox (to_address, subject, text_body, html_body) VALUES ($1, $2, $3, $4)', [
        mail.to,
        mail.subject,
        mail.text,
        mail.html ?? null,
      ]);
    },
  };
}
