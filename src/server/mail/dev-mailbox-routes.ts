import { and, desc, eq, type SQL } from 'drizzle-orm';
import type { FastifyInstance, FastifyReply } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { singleLineText } from '../../shared/input-policy';
import { outbox } from '../db/schema/mail';
import { answerIn, refusals } from '../http/answers';
import { notFound } from '../http/errors';
import type { AppContext } from '../kernel/context';
import { escapeHtml } from './layout';
import { openMailBody } from './outbox';

/**
 * Development-only view of every email the app queued, delivered or not: a page listing them, a page per
 * message and a JSON list for scripts and browser tests (which read codes and links from it). app.ts never
 * registers these routes when NODE_ENV=production.
 */

const LIST_LIMIT = 200;

const listQuery = z.strictObject({
  to: singleLineText(254).optional(),
  kind: singleLineText(100).optional(),
});
const messageParams = z.object({ id: z.coerce.number().int().positive().max(Number.MAX_SAFE_INTEGER) });

const devMailboxEntrySchema = z.object({
  id: z.int(),
  to: z.string(),
  subject: z.string(),
  kind: z.string(),
  ref: z.string().nullable(),
  status: z.enum(['pending', 'sent', 'failed']),
  attempts: z.int(),
  lastError: z.string().nullable(),
  createdAt: z.string(),
  sentAt: z.string().nullable(),
  text: z.string(),
});
type DevMailboxEntry = z.output<typeof devMailboxEntrySchema>;

const htmlPage = { 200: answerIn('The page', { 'text/html': z.string() }) };

const timeFormat = new Intl.DateTimeFormat('en-GB', {
  dateStyle: 'medium',
  timeStyle: 'medium',
  timeZone: 'UTC',
});
const formatTime = (date: Date) => `${timeFormat.format(date)} UTC`;

const STATUS_STYLE: Record<DevMailboxEntry['status'], string> = {
  pending: 'background:#fef3c7;color:#78350f',
  sent: 'background:#dcfce7;color:#14532d',
  failed: 'background:#fee2e2;color:#7f1d1d',
};

const PAGE_STYLE = `
*{box-sizing:border-box}
body{margin:0;background:#f8fafc;color:#0f172a;font:15px/1.5 Inter,system-ui,-apple-system,Segoe UI,Helvetica,Arial,sans-serif}
main{max-width:1100px;margin:0 auto;padding:32px 20px 48px}
h1{margin:0 0 4px;font-size:24px;color:#1e3a5f}
.lead{margin:0 0 24px;color:#475569}
a{color:#1e3a5f}
a:focus-visible{outline:3px solid #f59e0b;outline-offset:2px;border-radius:4px}
.card{background:#fff;border:1px solid #e2e8f0;border-radius:12px;overflow:hidden}
table{width:100%;border-collapse:collapse}
th,td{padding:12px 16px;text-align:left;vertical-align:top;border-bottom:1px solid #e2e8f0}
th{font-size:13px;font-weight:600;color:#475569;background:#f1f5f9}
tr:last-child td{border-bottom:0}
.subject{font-weight:600}
.muted{color:#475569;font-size:13px}
.badge{display:inline-block;padding:2px 10px;border-radius:999px;font-size:12px;font-weight:600}
.empty{padding:32px 16px;text-align:center;color:#475569}
dl{display:grid;grid-template-columns:max-content 1fr;gap:6px 16px;margin:0;padding:20px}
dt{color:#475569}
dd{margin:0;word-break:break-word}
h2{font-size:16px;margin:28px 0 10px}
iframe{display:block;width:100%;height:640px;border:0;background:#fff}
pre{margin:0;padding:20px;white-space:pre-wrap;word-break:break-word;font:14px/1.6 ui-monospace,Menlo,Consolas,monospace}
.narrow-only{display:none}
@media (max-width:640px){.hide-narrow{display:none}.narrow-only{display:block;margin-top:6px}td{word-break:break-word}}
`;

function page(title: string, body: string): string {
  return `<!doctype html><html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1"><meta name="robots" content="noindex"><link rel="icon" href="data:,"><title>${escapeHtml(title)}</title><style>${PAGE_STYLE}</style></head><body><main>${body}</main></body></html>`;
}

function sendPage(reply: FastifyReply, html: string) {
  return reply.header('cache-control', 'no-store').type('text/html; charset=utf-8').send(html);
}

const statusBadge = (status: DevMailboxEntry['status']) =>
  `<span class="badge" style="${STATUS_STYLE[status]}">${status}</span>`;

export async function devMailboxRoutes(base: FastifyInstance, ctx: AppContext): Promise<void> {
  const app = base.withTypeProvider<ZodTypeProvider>();
  const list = async (filter: z.output<typeof listQuery>): Promise<DevMailboxEntry[]> => {
    const conditions: SQL[] = [];
    if (filter.to) conditions.push(eq(outbox.to, filter.to));
    if (filter.kind) conditions.push(eq(outbox.kind, filter.kind));
    const rows = await ctx.db
      .select()
      .from(outbox)
      .where(and(...conditions))
      .orderBy(desc(outbox.id))
      .limit(LIST_LIMIT);
    return rows.map((row) => ({
      id: row.id,
      to: row.to,
      subject: row.subject,
      kind: row.kind,
      ref: row.ref,
      status: row.status,
      attempts: row.attempts,
      lastError: row.lastError,
      createdAt: row.createdAt.toISOString(),
      sentAt: row.sentAt?.toISOString() ?? null,
      text: openMailBody(ctx.dataSecrets, row).text,
    }));
  };

  const asJson = {
    schema: {
      querystring: listQuery,
      response: { 200: z.object({ messages: z.array(devMailboxEntrySchema) }), ...refusals(400) },
    },
  };
  app.get('/dev/mailbox.json', asJson, async (request, reply) => {
    const filter = request.query;
    reply.header('cache-control', 'no-store');
    return { messages: await list(filter) };
  });

  const listPage = { schema: { querystring: listQuery, response: { ...htmlPage, ...refusals(400) } } };
  app.get('/dev/mailbox', listPage, async (request, reply) => {
    const filter = request.query;
    const messages = await list(filter);
    const rows = messages
      .map(
        (m) => `<tr>
<td><a class="subject" href="/dev/mailbox/${m.id}">${escapeHtml(m.subject)}</a><div class="muted">${escapeHtml(m.kind)}</div><div class="narrow-only">${escapeHtml(m.to)} ${statusBadge(m.status)}</div></td>
<td class="hide-narrow">${escapeHtml(m.to)}</td>
<td class="hide-narrow">${statusBadge(m.status)}</td>
<td class="hide-narrow muted"><time datetime="${m.createdAt}">${escapeHtml(formatTime(new Date(m.createdAt)))}</time></td>
</tr>`,
      )
      .join('');
    const table =
      messages.length === 0
        ? '<p class="empty">No emails yet. Anything the app queues shows up here.</p>'
        : `<table><caption class="muted" style="text-align:left;padding:12px 16px">Newest first${messages.length === LIST_LIMIT ? ` (latest ${LIST_LIMIT})` : ''}</caption><thead><tr><th scope="col">Subject</th><th scope="col" class="hide-narrow">To</th><th scope="col" class="hide-narrow">Status</th><th scope="col" class="hide-narrow">Queued</th></tr></thead><tbody>${rows}</tbody></table>`;
    return sendPage(
      reply,
      page(
        'Dev mailbox',
        `<h1>Dev mailbox</h1><p class="lead">Every email the app has queued. Development only; also as <a href="/dev/mailbox.json">JSON</a>.</p><div class="card">${table}</div>`,
      ),
    );
  });

  const messagePage = { schema: { params: messageParams, response: { ...htmlPage, ...refusals(400, 404) } } };
  app.get('/dev/mailbox/:id', messagePage, async (request, reply) => {
    const { id } = request.params;
    const [stored] = await ctx.db.select().from(outbox).where(eq(outbox.id, id)).limit(1);
    if (!stored) throw notFound('No such email');
    const message = { ...stored, ...openMailBody(ctx.dataSecrets, stored) };
    const details: Array<[string, string]> = [
      ['To', escapeHtml(message.to)],
      ['Kind', escapeHtml(message.kind)],
      ['Status', statusBadge(message.status)],
      ['Attempts', String(message.attempts)],
      ['Queued', escapeHtml(formatTime(message.createdAt))],
    ];
    if (message.sentAt) details.push(['Sent', escapeHtml(formatTime(message.sentAt))]);
    if (message.ref) details.push(['Cause', escapeHtml(message.ref)]);
    if (message.lastError) details.push(['Last error', escapeHtml(message.lastError)]);
    // The email's own HTML is shown in a sandboxed frame (no scripts, no same-origin access), via srcdoc so it
    // never becomes a page of this site.
    const body = `<p><a href="/dev/mailbox">← All emails</a></p>
<h1>${escapeHtml(message.subject)}</h1>
<div class="card"><dl>${details.map(([label, value]) => `<dt>${label}</dt><dd>${value}</dd>`).join('')}</dl></div>
<h2>HTML</h2>
<div class="card"><iframe title="HTML part of the email" sandbox="" srcdoc="${escapeHtml(message.html)}"></iframe></div>
<h2>Plain text</h2>
<div class="card"><pre>${escapeHtml(message.text)}</pre></div>`;
    return sendPage(reply, page(`${message.subject} · Dev mailbox`, body));
  });
}
