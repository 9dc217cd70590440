import { SELF_DEACTIVATION_LIMIT, SELF_DEACTIVATION_WINDOW_DAYS } from '../../shared/licenses';
import { resetSelfDeactivations } from '../licenses/operator';
import { formatTime } from './format';
import { argument, defineCommand } from './framework';

const resetDeactivations = defineCommand({
  path: ['licenses', 'reset-deactivations'],
  summary: 'Let a buyer free devices from My Tools again (resets the self-service allowance)',
  args: [{ name: 'license-key', description: 'the license key as the buyer received it' }],
  example: 'licenses reset-deactivations ABCD-EFGH-IJKL-MNOP',
  details: `A buyer may free ${SELF_DEACTIVATION_LIMIT} devices in ${SELF_DEACTIVATION_WINDOW_DAYS} days; from now on the earlier ones no longer count.`,
  async run(env, input) {
    const key = argument(input, 0).trim();
    const ctx = await env.open();
    const done = await resetSelfDeactivations(ctx, { licenseKey: key }, env.actor);
    return {
      data: { licenseKey: done.licenseKey, selfDeactivationsResetAt: done.resetAt },
      text: `The buyer of ${done.licenseKey} may free ${SELF_DEACTIVATION_LIMIT} devices from My Tools again (reset ${formatTime(done.resetAt)}).`,
    };
  },
});

export const licenseCommands = [resetDeactivations];
