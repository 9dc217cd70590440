import { mkdir, rename, writeFile } from 'node:fs/promises';
import path from 'node:path';
import nodemailer, { type SendMailOptions, type Transporter } from 'nodemailer';
import { SITE } from '../../shared/site';
import type { Config } from '../kernel/config';

/** One outbox row on its way out. */
export type OutgoingMail = {
  id: number;
  to: string;
  subject: string;
  html: string;
  text: string;
  kind: string;
  createdAt: Date;
  /** Optional mail: the one-click unsubscribe URL (RFC 8058). */
  listUnsubscribe?: string | null;
  /** Files rendered for this send (tax documents). */
  attachments?: readonly MailAttachment[];
  /** Kept nowhere once sent (an erased account's confirmation): the development folder keeps no copy either. */
  deleteWhenSent?: boolean;
};

export type MailAttachment = { filename: string; content: Buffer; contentType: string };

/** Where mail goes: a real SMTP server, or (development) files under DATA_DIR/mail. */
export type MailTransport = {
  readonly name: 'smtp' | 'file';
  /** Resolves once the message is accepted; rejects with the reason otherwise. */
  send(mail: OutgoingMail): Promise<void>;
  close(): void;
};

export type TransportConfig = Pick<Config, 'smtpUrl' | 'mailFrom' | 'dataDir' | 'publicUrl'>;

/**
 * The notices whose text asks the reader to reply to the firm ("Questions? Reply to …", "We reply within 2 working
 * days", "reply to this email"): sent from the no-reply address, so their Reply-To is the firm's support address
 * (issue 63). A new notice that invites a reply is added here.
 */
export const REPLIES_GO_TO_FIRM: ReadonlySet<string> = new Set([
  'team-removed',
  'refund-notice',
  'refund-request',
  'refund-request-declined',
  'checkout-reminder',
  'license-suspended',
]);

/** Timeouts short enough that a dead SMTP server delays a worker run by seconds, not minutes. */
const SMTP_TIMEOUTS = { connectionTimeout: 10_000, greetingTimeout: 10_000, socketTimeout: 20_000 };

/**
 * The message as nodemailer takes it. The recipient is passed as an address object so a value such as
 * "a,b@example.com" stays one (quoted) recipient instead of being parsed into a list. The Message-ID is derived
 * from the outbox row, so a retry after an uncertain send carries the same id and receivers can drop the copy.
 */
function mailOptions(mail: OutgoingMail, config: TransportConfig): SendMailOptions {
  const host = new URL(config.publicUrl).hostname;
  return {
    from: config.mailFrom,
    to: { name: '', address: mail.to },
    ...(REPLIES_GO_TO_FIRM.has(mail.kind) ? { replyTo: SITE.supportEmail } : {}),
    subject: mail.subject,
    text: mail.text,
    html: mail.html,
    messageId: `<outbox-${mail.id}.${mail.createdAt.getTime()}@${host}>`,
    headers: {
      'Auto-Submitted': 'auto-generated',
      'X-Mail-Kind': mail.kind,
      ...(mail.listUnsubscribe
        ? {
            'List-Unsubscribe': `<${mail.listUnsubscribe}>`,
            'List-Unsubscribe-Post': 'List-Unsubscribe=One-Click',
          }
        : {}),
    },
    attachments: mail.attachments?.map((file) => ({ ...file })),
  };
}

function smtpTransport(smtpUrl: string, config: TransportConfig): MailTransport {
  // Without a pool every send opens its own connection: nothing to keep alive between worker runs, and a
  // restarted SMTP server is simply reached again on the next attempt.
  const transporter: Transporter = nodemailer.createTransport({
    url: smtpUrl,
    pool: false,
    ...SMTP_TIMEOUTS,
  });
  return {
    name: 'smtp',
    async send(mail) {
      await transporter.sendMail(mailOptions(mail, config));
    },
    close: () => transporter.close(),
  };
}

/**
 * Writes one message into DATA_DIR/mail as `<stamp>-<id>-<kind>.json` (fields, for scripts) and `.eml` (the raw
 * MIME message). Writing the same outbox row again replaces its two files (erasure redacts them this way).
 */
export async function writeMailFiles(config: TransportConfig, mail: OutgoingMail): Promise<void> {
  const directory = path.join(config.dataDir, 'mail');
  const composer = nodemailer.createTransport({ streamTransport: true, buffer: true, newline: 'unix' });
  const writeAtomically = async (file: string, content: string | Buffer) => {
    const partial = `${file}.partial`;
    await writeFile(partial, content);
    await rename(partial, file);
  };
  try {
    const options = mailOptions(mail, config);
    const info = (await composer.sendMail(options)) as { message: Buffer };
    await mkdir(directory, { recursive: true });
    const stamp = mail.createdAt.toISOString().replace(/[:.]/g, '-');
    const base = path.join(directory, `${stamp}-${mail.id}-${mail.kind.replace(/[^\w-]/g, '_')}`);
    const record = {
      id: mail.id,
      messageId: options.messageId,
      from: config.mailFrom,
      to: mail.to,
      subject: mail.subject,
      kind: mail.kind,
      createdAt: mail.createdAt.toISOString(),
      text: mail.text,
      html: mail.html,
      attachments: mail.attachments?.map((file) => file.filename) ?? [],
    };
    await writeAtomically(`${base}.eml`, info.message);
    await writeAtomically(`${base}.json`, `${JSON.stringify(record, null, 2)}\n`);
  } finally {
    composer.close();
  }
}

function fileTransport(config: TransportConfig): MailTransport {
  return {
    name: 'file',
    async send(mail) {
      if (mail.deleteWhenSent) return;
      await writeMailFiles(config, mail);
    },
    close() {},
  };
}

/** SMTP when SMTP_URL is set, otherwise files under DATA_DIR/mail (development; production requires SMTP). */
export function createMailTransport(config: TransportConfig): MailTransport {
  return config.smtpUrl ? smtpTransport(config.smtpUrl, config) : fileTransport(config);
}
