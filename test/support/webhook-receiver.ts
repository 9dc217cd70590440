import { createServer, type IncomingHttpHeaders, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { Webhook } from 'standardwebhooks';

export type WebhookPayload = { type: string; timestamp: string; data: Record<string, unknown> };

export type ReceivedWebhook = { path: string; headers: IncomingHttpHeaders; body: string };

/**
 * A webhook receiver on loopback, as a firm's own server would be: it records every request and answers each path
 * with the statuses it was told (in turn; 204 once they run out), and verifies signatures with the maintained
 * `standardwebhooks` library.
 */
export class WebhookReceiver {
  readonly received: ReceivedWebhook[] = [];
  private readonly answers = new Map<string, number[]>();
  private server: Server | undefined;
  /** How long each answer waits, to let racing senders overlap. */
  delayMs = 0;

  async start(): Promise<this> {
    this.server = createServer((request, response) => {
      const chunks: Buffer[] = [];
      request.on('data', (chunk: Buffer) => chunks.push(chunk));
      request.on('end', () => {
        const path = request.url ?? '/';
        this.received.push({ path, headers: request.headers, body: Buffer.concat(chunks).toString('utf8') });
        const status = this.answers.get(path)?.shift() ?? 204;
        // 0: never answer (a hung receiver); 3xx: a redirect to /redirected.
        if (status === 0) return;
        setTimeout(() => {
          response.statusCode = status;
          if (status >= 300 && status < 400) response.setHeader('location', '/redirected');
          response.end(status >= 400 ? `receiver says ${status}` : '');
        }, this.delayMs);
      });
    });
    await new Promise<void>((resolve) => this.server?.listen(0, '127.0.0.1', resolve));
    return this;
  }

  url(path: string): string {
    const address = this.server?.address() as AddressInfo | undefined;
    if (!address) throw new Error('the receiver is not listening');
    return `http://127.0.0.1:${address.port}${path}`;
  }

  /** The next answers to requests for `path`, in order. */
  answer(path: string, ...statuses: number[]): void {
    this.answers.set(path, statuses);
  }

  at(path: string): ReceivedWebhook[] {
    return this.received.filter((request) => request.path === path);
  }

  /** The request's payload, after its signature verified under `secret` (throws when it does not). */
  static verify(request: ReceivedWebhook, secret: string): WebhookPayload {
    const headers = Object.fromEntries(
      ['webhook-id', 'webhook-timestamp', 'webhook-signature'].map((name) => [
        name,
        String(request.headers[name]),
      ]),
    );
    return new Webhook(secret).verify(request.body, headers) as WebhookPayload;
  }

  close(): Promise<void> {
    this.server?.closeAllConnections();
    return new Promise((resolve) => (this.server ? this.server.close(() => resolve()) : resolve()));
  }
}
