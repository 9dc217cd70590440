import { z } from 'zod';
import {
  findMessage,
  listMessages,
  type MessageFilter,
  markMessageHandled,
  type StoredMessage,
} from '../contact/messages';
import { csv, details, formatTime, shortId, table } from './format';
import { argument, CommandError, defineCommand, parseCommandInput } from './framework';
import { limitOption, sinceOption } from './lookup';

const messageJson = (row: StoredMessage) => ({
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

const FILTERS = {
  unhandled: { type: 'boolean', description: 'Only messages not yet marked handled' },
  since: { type: 'string', value: '<date|age>', description: 'Received since, e.g. 2026-06-01 or 7d' },
} as const;

/** The filter the options ask for, parsed before the database is opened. */
const filterInput = z.object({ unhandled: z.boolean().optional(), since: sinceOption });
const listInput = filterInput.extend({ limit: limitOption(50) });

const list = defineCommand({
  path: ['messages', 'list'],
  summary: 'List contact-form messages, newest first',
  options: {
    ...FILTERS,
    limit: { type: 'string', value: '<n>', description: 'At most this many (default 50)' },
  },
  example: 'messages list --unhandled',
  async run(env, { options }) {
    const { limit, ...filter }: MessageFilter & { limit: number } = parseCommandInput(listInput, { options });
    const ctx = await env.open();
    const rows = await listMessages(ctx, { ...filter, order: 'newest', limit });
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
    const { message: row, alreadyHandled } = await markMessageHandled(ctx, argument(input, 0), env.actor);
    return {
      data: messageJson(row),
      text: alreadyHandled
        ? `Message ${shortId(row.id)} from ${row.name} was already marked handled on ${formatTime(row.handledAt)}.`
        : `Message ${shortId(row.id)} from ${row.name} is marked handled.`,
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
    const filter: MessageFilter = parseCommandInput(filterInput, { options });
    const ctx = await env.open();
    const rows = await listMessages(ctx, { ...filter, order: 'oldest' });
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
