import { z } from 'zod';
import { listActivity } from '../operator/activity';
import { formatTime, table } from './format';
import { defineCommand, parseCommandInput } from './framework';
import { limitOption, sinceOption } from './lookup';

const change = (value: unknown) => (value === null || value === undefined ? '' : JSON.stringify(value));

const activityInput = z.object({
  since: sinceOption,
  search: z.string().optional(),
  limit: limitOption(100),
});

const activity = defineCommand({
  path: ['activity'],
  summary: 'The audit log: who did what to which order, tool, license or account, with before and after',
  options: {
    since: { type: 'string', value: '<date|age>', description: 'Only actions since, e.g. 2026-06-01 or 7d' },
    search: {
      type: 'string',
      value: '<text>',
      description: 'Only actions whose who, what or subject has it',
    },
    limit: { type: 'string', value: '<n>', description: 'At most this many, newest first (default 100)' },
  },
  example: 'activity --since 7d',
  details:
    'The same entries as the dashboard’s Activity: operator actions from the dashboard (by email) and from this\n' +
    'command line (cli:<OS user>), second-factor sign-ins and wrong codes.',
  async run(env, { options }) {
    const { since, search, limit } = parseCommandInput(activityInput, { options });
    const ctx = await env.open();
    const { items } = await listActivity(ctx, {
      pageSize: limit,
      sort: 'createdAt',
      dir: 'desc',
      q: search?.trim() || undefined,
      since,
    });
    return {
      data: items,
      text: table(
        ['WHEN', 'WHO', 'WHAT', 'SUBJECT', 'BEFORE', 'AFTER'],
        items.map((entry) => [
          formatTime(new Date(entry.createdAt)),
          entry.actor,
          entry.action,
          entry.target,
          change(entry.before),
          change(entry.after),
        ]),
        since ? 'No operator actions in that period.' : 'No operator actions yet.',
      ),
    };
  },
});

export const activityCommands = [activity];
