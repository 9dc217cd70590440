import { extendTrialSchema } from '../../shared/dashboard';
import { endTrial, extendTrial } from '../trials/operator';
import { formatTime } from './format';
import { argument, defineCommand, parseCommandInput, requireOption } from './framework';

const TRIAL_ARG = {
  name: 'trial',
  description: 'the trial’s license key, or its id (or the start of it) from the dashboard’s tool page',
};

const extend = defineCommand({
  path: ['trials', 'extend'],
  summary: 'Give a free trial more days (from its end, or from now if it has ended)',
  args: [TRIAL_ARG],
  options: { days: { type: 'string', value: '<n>', description: 'How many days to add' } },
  example: 'trials extend ABCD1-EFGH2-IJKL3-MNOP4 --days 7',
  details: 'The reminder and end emails are sent again before the new end.',
  async run(env, input) {
    const change = parseCommandInput(extendTrialSchema, {
      options: { days: requireOption(input.options.days, 'days', 'trials extend').trim() },
    });
    const ctx = await env.open();
    const done = await extendTrial(ctx, argument(input, 0), change, env.actor);
    return {
      data: { trialId: done.trialId, expiresAt: done.expiresAt },
      text: `The trial now ends ${formatTime(done.expiresAt)}.`,
    };
  },
});

const end = defineCommand({
  path: ['trials', 'end'],
  summary: 'End a free trial now: the tool answers EXPIRED from this moment',
  args: [TRIAL_ARG],
  example: 'trials end ABCD1-EFGH2-IJKL3-MNOP4',
  async run(env, input) {
    const ctx = await env.open();
    const done = await endTrial(ctx, argument(input, 0), env.actor);
    return { data: done, text: `The trial ended ${formatTime(done.endedAt)}.` };
  },
});

export const trialCommands = [extend, end];
