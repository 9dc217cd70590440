import { and, desc, gte, isNull, type SQL } from 'drizzle-orm';
import { markMessageHandled } from '../contact/messages';
import type { DbOrTx } from '../db';
import { contactMessages } from '../db/schema';
import { csv, details, formatTime, shortId, table } from './format';
import { argument, CommandError, defineCommand } from './framework';
import { findOne, parseLimit, parseSince } from './lookup';

type MessageRow = typeof contactMessages.$inferSelect;

const messageJson = (row: MessageRow) => ({
  id: row.id,
  name: row.name,
  organisation: row.organisation,
  email: row.email,
  relatedTo: row.relatedTo,
  description: row.description,
  ip: row.ip,
  createdAt: row.createdAt,
  handledAt: row.handledAt,
});

function findMessage(db: DbOrTx, typed: string): Promise<MessageRow> {
  return findOne({
    idColumn: contactMessages.id,
    typed,
    noun: 'message',
    listCommand: 'messages list',
    select: (where) => db.select().from(contactMessages).where(where).limit(2),
  });
}

const FILTERS = {
  unhandled: { type: 'boolean', description: 'Only messages not yet marked handled' },
  since: { type: 'string', value: '<date|age>', description: 'Received since, e.g. 2026-06-01 or 7d' },
} as const;

function filterConditions(options: { unhandled?: boolean; since?: string }): SQL | undefined {
  const conditions: SQL[] = [];
  if (options.unhandled) conditions.push(isNull(contactMessages.handledAt));
  if (options.since !== undefined)
    conditions.push(gte(contactMessages.createdAt, parseSince(options.since, new Date())));
  return conditions.length > 0 ? and(...conditions) : undefined;
}

const list = defineCommand({
  path: ['messages', 'list'],
  summary: 'List contact-form messages, newest first',
  options: {
    ...FILTERS,
    limit: { type: 'string', value: '<n>', description: 'At most this many (default 50)' },
  },
  example: 'messages list --unhandled',
  async run(env, { options }) {
    const where = filterConditions(options);
    const limit = parseLimit(options.limit, 50);
    const ctx = await env.open();
    const rows = await ctx.db
      .select()
      .from(contactMessages)
      .where(where)
      .orderBy(desc(contactMessages.createdAt), desc(contactMessages.id))
      .limit(limit);
    return {
      data: rows.map(messageJson),
      text: table(
        ['ID', 'RECEIVED', 'FROM', 'EMAIL', 'ABOUT', 'HANDLED', 'MESSAGE'],
        rows.map((row) => [
          shortId(row.id),
          formatTime(row.createdAt),
          row.organisation ? `${row.name} (${row.organisation})` : row.name,
          row.email,
          row.relatedTo,
          row.handledAt ? 'yes' : 'no',
          row.description,
        ]),
        options.unhandled ? 'No unhandled messages.' : 'No messages.',
      ),
    };
  },
});

const show = defineCommand({
  path: ['messages', 'show'],
  summary: 'Show one message in full',
  args: [{ name: 'id', description: 'the message (its id or the start of it)' }],
  example: 'messages show 5e6f7a8b',
  async run(env, input) {
    const ctx = await env.open();
    const row = await findMessage(ctx.db, argument(input, 0));
    return {
      data: messageJson(row),
      text: details([
        ['ID', row.id],
        ['Received', formatTime(row.createdAt)],
        ['From', row.name],
        ['Organisation', row.organisation],
        ['Email', row.email],
        ['About', row.relatedTo],
        ['Sender IP', row.ip],
        ['Handled', row.handledAt ? formatTime(row.handledAt) : 'no'],
        ['Message', row.description],
      ]),
    };
  },
});

const handled = defineCommand({
  path: ['messages', 'handled'],
  summary: 'Mark a message as handled',
  args: [{ name: 'id', description: 'the message (its id or the start of it)' }],
  example: 'messages handled 5e6f7a8b',
  async run(env, input) {
    const ctx = await env.open();
    const row = await findMessage(ctx.db, argument(input, 0));
    if (row.handledAt) {
      return {
        data: messageJson(row),
        text: `Message ${shortId(row.id)} from ${row.name} was already marked handled on ${formatTime(row.handledAt)}.`,
      };
    }
    const { row: result } = await markMessageHandled(ctx, row.id);
    return {
      data: messageJson(result),
      text: `Message ${shortId(row.id)} from ${row.name} is marked handled.`,
    };
  },
});

const exportCommand = defineCommand({
  path: ['messages', 'export'],
  summary: 'Print messages as CSV (for a spreadsheet), oldest first',
  options: {
    csv: { type: 'boolean', description: 'CSV output (the default)' },
    ...FILTERS,
  },
  example: 'messages export --csv > messages.csv',
  details:
    'Cells that a spreadsheet would run as a formula (starting with = + - @) get a leading apostrophe:\n' +
    'the messages are what visitors typed.',
  async run(env, { options }) {
    if (options.csv === false)
      throw new CommandError('messages export only writes CSV (or JSON with --json).');
    const where = filterConditions(options);
    const ctx = await env.open();
    const rows = await ctx.db
      .select()
      .from(contactMessages)
      .where(where)
      .orderBy(contactMessages.createdAt, contactMessages.id);
    return {
      data: rows.map(messageJson),
      text: csv(
        ['id', 'received', 'name', 'organisation', 'email', 'related_to', 'message', 'handled', 'ip'],
        rows.map((row) => [
          row.id,
          row.createdAt,
          row.name,
          row.organisation,
          row.email,
          row.relatedTo,
          row.description,
          row.handledAt,
          row.ip,
        ]),
      ),
    };
  },
});

export const messageCommands = [list, show, handled, exportCommand];
