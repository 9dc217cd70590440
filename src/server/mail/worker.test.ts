import { mkdtemp, readdir, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { eq } from 'drizzle-orm';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../../../test/support/app';
import { appWithSmtp } from '../../../test/support/file-apps';
import { deliverDueMail, openedMails } from '../../../test/support/mail';
import { SITE } from '../../shared/site';
import { outbox } from '../db/schema/mail';
import { backgroundJobs, startJobs } from '../jobs';
import { createDataSecrets } from '../kernel/data-secrets';
import { renderRemovedEmail } from '../teams/team-email';
import { renderEmail } from './layout';
import { enqueueMail, sealMailBodies } from './outbox';
import { createMailTransport, type MailTransport, REPLIES_GO_TO_FIRM } from './transport';
import { CLAIM_LEASE_MS, createOutboxWorker, MAX_ATTEMPTS, type OutboxLog, RETRY_DELAYS_MS } from './worker';

type LogEntry = { level: 'warn' | 'error'; obj: object; msg: string };

function recordingLog(): OutboxLog & { entries: LogEntry[] } {
  const entries: LogEntry[] = [];
  return {
    entries,
    warn: (obj, msg) => entries.push({ level: 'warn', obj, msg }),
    error: (obj, msg) => entries.push({ level: 'error', obj, msg }),
  };
}

async function queue(t: TestApp, to: string, subject = `Hello ${to}`) {
  const email = renderEmail({ subject, heading: subject, blocks: [{ kind: 'paragraph', text: 'Body' }] });
  return enqueueMail(t.ctx, t.ctx.db, { to, kind: 'test', ...email }, t.clock.now());
}

/** The worker's collaborators these tests do not vary: the app's keys, and no attachments (none are queued here). */
const fixed = (t: TestApp) => ({
  db: t.ctx.db,
  clock: t.clock,
  dataSecrets: t.ctx.dataSecrets,
  resolveAttachments: async () => [],
});

const rowOf = async (t: TestApp, id: number) => {
  const [row] = await t.ctx.db.select().from(outbox).where(eq(outbox.id, id));
  if (!row) throw new Error(`no outbox row ${id}`);
  return row;
};

describe('outbox worker over SMTP', () => {
  const { t, smtp } = appWithSmtp(createTestApp, { each: true });

  it("sends the notices that ask for a reply with the firm's address as Reply-To, and no other", async () => {
    const removed = renderRemovedEmail({
      memberName: 'Asha',
      ownerName: 'Ritu',
      toolName: 'PDF Utility Toolkit',
      byOperator: false,
    });
    expect(removed.text).toContain(`Reply to ${SITE.supportEmail}`);
    for (const kind of [...REPLIES_GO_TO_FIRM, 'signup-code'])
      await enqueueMail(t.ctx, t.ctx.db, { to: `${kind}@example.com`, kind, ...removed }, t.clock.now());
    await deliverDueMail(t.ctx);
    for (const kind of REPLIES_GO_TO_FIRM)
      expect(
        (await smtp.waitFor((mail) => mail.to.includes(`${kind}@example.com`))).headers['reply-to'],
        kind,
      ).toContain(SITE.supportEmail);
    expect(
      (await smtp.waitFor((mail) => mail.to.includes('signup-code@example.com'))).headers['reply-to'],
    ).toBe(undefined);
    expect(REPLIES_GO_TO_FIRM.has('team-removed')).toBe(true);
  });

  it('retries with growing delays and marks the message failed after the last attempt', async () => {
    const port = smtp.port;
    await smtp.stop();
    const log = recordingLog();
    const transport = createMailTransport(t.config);
    const worker = createOutboxWorker({ ...fixed(t), transport, log });
    const id = await queue(t, 'nobody@example.com');

    for (let attempt = 1; attempt < MAX_ATTEMPTS; attempt++) {
      expect(await worker.runOnce()).toMatchObject({ claimed: 1, retried: 1 });
      const row = await rowOf(t, id);
      const delay = RETRY_DELAYS_MS[attempt - 1] ?? 0;
      expect(row).toMatchObject({ status: 'pending', attempts: attempt });
      expect(row.nextAttemptAt.getTime()).toBe(t.clock.now().getTime() + delay);
      t.clock.advance(delay - 1);
      expect(await worker.runOnce()).toMatchObject({ claimed: 0 });
      t.clock.advance(1);
    }
    expect(await worker.runOnce()).toMatchObject({ claimed: 1, failed: 1 });
    const failed = await rowOf(t, id);
    expect(failed).toMatchObject({ status: 'failed', attempts: MAX_ATTEMPTS, sentAt: null });
    expect(failed.lastError).toMatch(/ECONNREFUSED|connect/i);
    expect(log.entries.filter((entry) => entry.level === 'warn')).toHaveLength(MAX_ATTEMPTS - 1);
    expect(log.entries.at(-1)).toMatchObject({ level: 'error', obj: { outboxId: id, kind: 'test' } });

    t.clock.advance(7 * 24 * 60 * 60 * 1000);
    await smtp.start(port);
    expect(await worker.runOnce()).toMatchObject({ claimed: 0 });
    expect(smtp.messages).toHaveLength(0);
    // The whole schedule fits in about a day.
    const total = RETRY_DELAYS_MS.reduce((sum, delay) => sum + delay, 0);
    expect(total).toBeGreaterThan(20 * 60 * 60 * 1000);
    expect(total).toBeLessThan(26 * 60 * 60 * 1000);
  });

  it('never sends a message twice when two workers run at the same time', async () => {
    const ids: number[] = [];
    for (let i = 0; i < 25; i++) ids.push(await queue(t, `reader${i}@example.com`));
    const workers = [1, 2].map(() =>
      createOutboxWorker({
        ...fixed(t),
        transport: createMailTransport(t.config),
        log: recordingLog(),
        batchSize: 4,
      }),
    );
    const results = await Promise.all(workers.flatMap((worker) => [worker.drain(), worker.runOnce()]));
    expect(results.reduce((sum, result) => sum + result.sent, 0)).toBe(25);
    expect(smtp.messages).toHaveLength(25);
    expect(new Set(smtp.messages.map((mail) => mail.to[0])).size).toBe(25);
    const rows = await t.ctx.db.select().from(outbox);
    expect(rows.every((row) => row.status === 'sent' && row.attempts === 1)).toBe(true);
  });

  it('stops after the email it is sending when its job is stopped, and hands the rest back, due at once', async () => {
    const ids: number[] = [];
    for (let i = 0; i < 10; i++) ids.push(await queue(t, `backlog${i}@example.com`));
    const stopping = new AbortController();
    const smtpTransport = createMailTransport(t.config);
    // The server is told to shut down while the first email of the batch is being sent.
    const transport: MailTransport = {
      ...smtpTransport,
      send: (mail) => {
        stopping.abort();
        return smtpTransport.send(mail);
      },
    };
    const stopped = createOutboxWorker({ ...fixed(t), transport, log: recordingLog(), batchSize: 4 });
    expect(await stopped.drain(stopping.signal)).toMatchObject({ claimed: 4, sent: 1, released: 3 });
    expect(smtp.messages).toHaveLength(1);
    const rows = await t.ctx.db.select().from(outbox);
    expect(rows.filter((row) => row.status === 'sent').map((row) => row.id)).toEqual([ids[0]]);
    // None is left leased: another instance's worker sends the other nine now, each once.
    expect(rows.filter((row) => row.status === 'pending' && row.attempts === 0)).toHaveLength(9);
    expect(await deliverDueMail(t.ctx)).toMatchObject({ sent: 9 });
    expect(new Set(smtp.messages.map((mail) => mail.to[0])).size).toBe(10);
  });

  it('picks a message up again once the lease of a worker that died mid-send runs out', async () => {
    const id = await queue(t, 'patient@example.com');
    const stuck: MailTransport = { name: 'smtp', send: () => new Promise<void>(() => {}), close() {} };
    const dying = createOutboxWorker({ ...fixed(t), transport: stuck, log: recordingLog() });
    void dying.runOnce();
    await expect.poll(async () => (await rowOf(t, id)).attempts).toBe(1);

    const healthy = createOutboxWorker({
      ...fixed(t),
      transport: createMailTransport(t.config),
      log: recordingLog(),
    });
    expect(await healthy.runOnce()).toMatchObject({ claimed: 0 });
    t.clock.advance(CLAIM_LEASE_MS);
    expect(await healthy.runOnce()).toMatchObject({ claimed: 1, sent: 1 });
    expect(await rowOf(t, id)).toMatchObject({ status: 'sent', attempts: 2 });
    expect(smtp.messages).toHaveLength(1);
  });

  it('delivers each message to exactly the one address it names, never to a list parsed out of it', async () => {
    const quoted = await queue(t, 'first,second@example.com');
    const bogus = await queue(t, 'victim@example.com;other');
    expect(await deliverDueMail(t.ctx)).toMatchObject({ claimed: 2, sent: 1, retried: 1 });
    expect(smtp.messages.map((mail) => mail.to)).toEqual([['"first,second"@example.com']]);
    expect(await rowOf(t, quoted)).toMatchObject({ status: 'sent' });
    expect(await rowOf(t, bogus)).toMatchObject({ status: 'pending', attempts: 1 });
  });

  it('keeps both bodies sealed in the outbox and opens them only to send', async () => {
    const id = await queue(t, 'reader@example.com');
    const stored = await rowOf(t, id);
    for (const body of [stored.html, stored.text]) {
      expect(body.startsWith(t.ctx.dataSecrets.currentPrefix)).toBe(true);
      expect(body).not.toContain('Body');
    }
    // Each body is bound to its column: the text part does not open as the HTML part.
    expect(() => t.ctx.dataSecrets.open('mail-html', stored.text)).toThrow();
    expect(openedMails(t.ctx, [stored])[0]?.text).toContain('Body');

    expect(await deliverDueMail(t.ctx)).toMatchObject({ sent: 1 });
    expect(smtp.messages[0]?.text).toContain('Body');
    expect(smtp.messages[0]?.html).toContain('<!doctype html>');
  });

  it('still sends a message queued in clear before bodies were sealed', async () => {
    const email = renderEmail({
      subject: 'Old',
      heading: 'Old',
      blocks: [{ kind: 'paragraph', text: 'Queued long ago' }],
    });
    await t.ctx.db.insert(outbox).values({ to: 'old@example.com', kind: 'test', ...email });
    expect(await deliverDueMail(t.ctx)).toMatchObject({ sent: 1 });
    expect(smtp.messages[0]?.text).toContain('Queued long ago');
    expect(smtp.messages[0]?.html).toContain('Queued long ago');
  });

  it('opens a body sealed under a key since rotated out, and retries one sealed under a key it no longer has', async () => {
    const oldKey = t.config.dataSecret.key ?? Buffer.alloc(32);
    const keys = (previousKeys: Buffer[]) =>
      createDataSecrets({
        dataDir: t.config.dataDir,
        dataSecret: { key: Buffer.alloc(32, 7), previousKeys },
      });
    const worker = (dataSecrets: ReturnType<typeof keys>) =>
      createOutboxWorker({
        ...fixed(t),
        dataSecrets,
        transport: createMailTransport(t.config),
        log: recordingLog(),
      });
    const id = await queue(t, 'rotated@example.com');

    expect(await worker(keys([])).runOnce()).toMatchObject({ claimed: 1, sent: 0, retried: 1 });
    expect((await rowOf(t, id)).lastError).toMatch(/unknown key/);
    t.clock.advance(RETRY_DELAYS_MS[0] ?? 0);
    expect(await worker(keys([oldKey])).runOnce()).toMatchObject({ claimed: 1, sent: 1 });
    expect(smtp.messages.map((mail) => mail.text)).toEqual([expect.stringContaining('Body')]);
  });

  it('sends mail queued while the server runs within moments, without waiting for the next tick', async () => {
    const log = recordingLog();
    const jobs = startJobs(backgroundJobs(t.ctx, log), log);
    try {
      // Let the first tick run and finish, so only a nudge can explain a quick delivery.
      await new Promise((resolve) => setTimeout(resolve, 300));
      const started = Date.now();
      const c = await t.client();
      const response = await c.post('/api/contact', {
        name: 'Ravi',
        email: 'ravi@example.in',
        relatedTo: 'Products',
        description: 'Do you sell a PDF merger?',
      });
      expect(response.statusCode).toBe(200);
      await smtp.waitFor((mail) => mail.to.includes('ravi@example.in'), 5000);
      expect(Date.now() - started).toBeLessThan(1500);
      expect(log.entries).toEqual([]);
    } finally {
      await jobs.stop();
    }
  });
});

describe('outbox worker without SMTP', () => {
  let dataDir: string;
  let t: TestApp;

  beforeEach(async () => {
    dataDir = await mkdtemp(path.join(tmpdir(), 'outbox-files-'));
    t = await createTestApp({ env: { DATA_DIR: dataDir } });
  });
  afterEach(async () => {
    await t.close();
    await rm(dataDir, { recursive: true, force: true });
  });

  it('writes each message to DATA_DIR/mail as JSON and as a MIME .eml file', async () => {
    const id = await queue(t, 'reader@example.com', 'Your licence key');
    expect(await deliverDueMail(t.ctx)).toMatchObject({ sent: 1 });

    const files = (await readdir(path.join(dataDir, 'mail'))).sort();
    expect(files).toHaveLength(2);
    expect(files.every((file) => file.includes(`-${id}-test.`))).toBe(true);
    const json = JSON.parse(await readFile(path.join(dataDir, 'mail', files[1] ?? ''), 'utf8'));
    expect(json).toMatchObject({ id, to: 'reader@example.com', subject: 'Your licence key', kind: 'test' });
    expect(json.text).toContain('Body');
    const eml = await readFile(path.join(dataDir, 'mail', files[0] ?? ''), 'utf8');
    expect(eml).toContain('Subject: Your licence key');
    expect(eml).toContain('To: reader@example.com');
    expect(eml).toMatch(/Message-ID: <outbox-\d+\.\d+@localhost>/);
    expect(await rowOf(t, id)).toMatchObject({ status: 'sent' });
  });

  it('at start seals bodies queued in clear and re-seals those under a rotated-out key, once', async () => {
    const sealed = await queue(t, 'sealed@example.com');
    const email = renderEmail({
      subject: 'Old',
      heading: 'Old',
      blocks: [{ kind: 'paragraph', text: 'In clear' }],
    });
    await t.ctx.db.insert(outbox).values({ to: 'old@example.com', kind: 'test', ...email });
    const newKey = Buffer.alloc(32, 7);
    const rotated = createDataSecrets({
      dataDir: t.config.dataDir,
      dataSecret: { key: newKey, previousKeys: [t.config.dataSecret.key ?? Buffer.alloc(32)] },
    });

    expect(await sealMailBodies(t.ctx.db, rotated)).toBe(2);
    expect(await sealMailBodies(t.ctx.db, rotated)).toBe(0);
    const rows = await t.ctx.db.select().from(outbox).orderBy(outbox.id);
    expect(
      rows.flatMap((row) => [row.html, row.text]).every((body) => body.startsWith(rotated.currentPrefix)),
    ).toBe(true);
    // The old key is no longer needed to open any of them.
    const newOnly = createDataSecrets({
      dataDir: t.config.dataDir,
      dataSecret: { key: newKey, previousKeys: [] },
    });
    const [first, second] = openedMails({ dataSecrets: newOnly }, rows);
    expect(first).toMatchObject({ id: sealed, text: expect.stringContaining('Body') });
    expect(second).toMatchObject({ html: email.html, text: email.text });
  });
});
