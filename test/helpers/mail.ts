// A real SMTP server on a loopback port for tests (smtp-server), keeping what it receives.
import { once } from 'node:events';
import type { AddressInfo } from 'node:net';
import { SMTPServer } from 'smtp-server';

export interface ReceivedMail {
  from: string;
  to: string[];
  subject: string;
  /** The decoded text body. */
  text: string;
}

export interface MailServer {
  /** SMTP_URL for the server under test (with the credentials this server accepts). */
  url: string;
  received: ReceivedMail[];
  close(): Promise<void>;
}

function decodeBody(headers: string, body: string): string {
  const encoding = /^content-transfer-encoding:\s*(\S+)/im.exec(headers)?.[1]?.toLowerCase();
  if (encoding === 'base64') return Buffer.from(body.replace(/\s+/g, ''), 'base64').toString('utf8');
  if (encoding === 'quoted-printable') {
    const bytes = body.replace(/=\r?\n/g, '').replace(/=([0-9A-F]{2})/gi, (_, h: string) => String.fromCharCode(parseInt(h, 16)));
    return Buffer.from(bytes, 'latin1').toString('utf8');
  }
  return body;
}

function parse(raw: string, from: string, to: string[]): ReceivedMail {
  const split = raw.indexOf('\r\n\r\n');
  const headers = raw.slice(0, split).replace(/\r\n[ \t]+/g, ' ');
  const subject = /^subject:\s*(.*)$/im.exec(headers)?.[1] ?? '';
  return { from, to, subject: subject.trim(), text: decodeBody(headers, raw.slice(split + 4)).replace(/\r\n/g, '\n') };
}

export async function startMailServer(): Promise<MailServer> {
  const received: ReceivedMail[] = [];
  const server = new SMTPServer({
    disabledCommands: ['STARTTLS'],
    allowInsecureAuth: true,
    onAuth(auth, _session, callback) {
      if (auth.username === 'mailer' && auth.password === 'secret') callback(null, { user: auth.username });
      else callback(new Error('Invalid username or password'));
    },
    onData(stream, session, callback) {
      const chunks: Buffer[] = [];
      stream.on('data', (c: Buffer) => chunks.push(c));
      stream.on('end', () => {
        const from = session.envelope.mailFrom === false ? '' : session.envelope.mailFrom.address;
        received.push(parse(Buffer.concat(chunks).toString('utf8'), from, session.envelope.rcptTo.map((r) => r.address)));
        callback();
      });
    },
  });
  server.listen(0, '127.0.0.1');
  await once(server.server, 'listening');
  const { port } = server.server.address() as AddressInfo;
  return {
    url: `smtp://mailer:secret@127.0.0.1:${port}`,
    received,
    close: () => new Promise((resolve) => server.close(() => resolve())),
  };
}

/** The first link to this server's pages in a mail. */
export function linkIn(mail: ReceivedMail): string {
  const m = /https?:\/\/\S+\/(?:join|accounts\/password\/reset)\/[A-Za-z0-9_-]+\//.exec(mail.text);
  if (!m) throw new Error(`no link in mail: ${mail.text}`);
  return m[0];
}

/** Waits (up to two seconds) until the server has received `count` mails. */
export async function waitForMail(server: MailServer, count: number): Promise<ReceivedMail> {
  for (let i = 0; i < 200 && server.received.length < count; i++) await new Promise((r) => setTimeout(r, 10));
  const mail = server.received[count - 1];
  if (!mail) throw new Error(`expected ${count} mails, received ${server.received.length}`);
  return mail;
}
