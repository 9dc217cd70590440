import type { AddressInfo } from 'node:net';
import PostalMime from 'postal-mime';
import { SMTPServer } from 'smtp-server';

export type ReceivedAttachment = { filename: string | null; mimeType: string; content: Buffer };
export type ReceivedMail = {
  to: string[];
  from: string;
  subject: string;
  text: string;
  html: string;
  attachments: ReceivedAttachment[];
  /** Every header by its lower-case name (the last one when repeated). */
  headers: Record<string, string>;
};

/**
 * A real SMTP server on loopback that keeps what it receives. Tests point SMTP_URL at it, and can stop and
 * restart it on the same port to see the outbox retry.
 */
export class TestSmtpServer {
  readonly messages: ReceivedMail[] = [];
  private server: SMTPServer | undefined;
  private waiters: Array<() => void> = [];
  port = 0;

  get url(): string {
    return `smtp://127.0.0.1:${this.port}`;
  }

  async start(port = this.port): Promise<this> {
    const server = new SMTPServer({
      authOptional: true,
      disabledCommands: ['STARTTLS', 'AUTH'],
      logger: false,
      onData: (stream, session, callback) => {
        const chunks: Buffer[] = [];
        stream.on('data', (chunk: Buffer) => chunks.push(chunk));
        stream.on('end', async () => {
          const parsed = await PostalMime.parse(Buffer.concat(chunks));
          this.messages.push({
            to: session.envelope.rcptTo.map((rcpt) => rcpt.address),
            from: session.envelope.mailFrom ? session.envelope.mailFrom.address : '',
            subject: parsed.subject ?? '',
            text: parsed.text ?? '',
            html: parsed.html ?? '',
            attachments: parsed.attachments.map((file) => ({
              filename: file.filename,
              mimeType: file.mimeType,
              content: Buffer.from(file.content as ArrayBuffer),
            })),
            headers: Object.fromEntries(parsed.headers.map((header) => [header.key, header.value])),
          });
          for (const wake of this.waiters.splice(0)) wake();
          callback();
        });
      },
    });
    await new Promise<void>((resolve, reject) => {
      server.once('error', reject);
      server.listen(port, '127.0.0.1', () => resolve());
    });
    this.server = server;
    this.port = (server.server.address() as AddressInfo).port;
    return this;
  }

  async stop(): Promise<void> {
    const server = this.server;
    this.server = undefined;
    if (server) await new Promise<void>((resolve) => server.close(() => resolve()));
  }

  /** Waits until a message matching `predicate` has arrived (or fails after `timeoutMs`). */
  async waitFor(predicate: (mail: ReceivedMail) => boolean, timeoutMs = 10_000): Promise<ReceivedMail> {
    const deadline = Date.now() + timeoutMs;
    for (;;) {
      const found = this.messages.find(predicate);
      if (found) return found;
      const left = deadline - Date.now();
      if (left <= 0)
        throw new Error(`no matching email within ${timeoutMs} ms (received ${this.messages.length})`);
      await new Promise<void>((resolve) => {
        const timer = setTimeout(resolve, Math.min(left, 200));
        this.waiters.push(() => {
          clearTimeout(timer);
          resolve();
        });
      });
    }
  }
}
