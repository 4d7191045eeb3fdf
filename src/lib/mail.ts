// Outgoing mail. With SMTP_URL, mail goes out through nodemailer; without it, the message (and so
// its link) is written to the server log, so a one-machine setup still works.
import type { Transporter } from 'nodemailer';
import type nodemailerTypes from 'nodemailer';
import { lazy } from '../lazy.ts';
import type { AppContext } from '../context.ts';

export interface Mail {
  to: string;
  subject: string;
  text: string;
}

const nodemailer = lazy<typeof nodemailerTypes>('nodemailer');

/** One transport per running server (it pools its SMTP connections). */
const transports = new WeakMap<AppContext, Transporter>();

export const mailConfigured = (app: AppContext): boolean => app.config.smtpUrl !== null;

/**
 * Sends the mail, or logs it when no SMTP server is configured. A failure to send is logged and
 * reported as false: what the mail is about (an invitation, a reset) has been saved already.
 */
export async function sendMail(app: AppContext, mail: Mail): Promise<boolean> {
  if (app.config.smtpUrl === null) {
    app.log.info({ to: mail.to, subject: mail.subject }, `Email not sent (no SMTP_URL configured):\n${mail.text}`);
    return true;
  }
  let transport = transports.get(app);
  if (!transport) {
    transport = nodemailer().createTransport(app.config.smtpUrl);
    transports.set(app, transport);
  }
  try {
    await transport.sendMail({ from: app.config.emailFrom, to: mail.to, subject: mail.subject, text: mail.text });
    return true;
  } catch (err) {
    app.log.error({ err, to: mail.to, subject: mail.subject }, 'Email could not be sent');
    return false;
  }
}

/** Closes the SMTP connections of this server (at shutdown). */
export function closeMail(app: AppContext): void {
  transports.get(app)?.close();
  transports.delete(app);
}
