import { z } from 'zod';
import { SELF_DEACTIVATION_LIMIT, SELF_DEACTIVATION_WINDOW_DAYS } from '../../shared/licenses';
import { teamInvitationRequestSchema } from '../../shared/teams';
import { DomainError } from '../kernel/domain-error';
import { deactivateDeviceAsOperator, licensesOf, resetSelfDeactivations } from '../licenses/operator';
import { freeSeatAsOperator, moveSeatAsOperator } from '../teams/operator';
import { details, formatTime, sections, shortId, table } from './format';
import { argument, defineCommand, parseCommandInput, requireOption } from './framework';

const KEY_ARG = { name: 'license-key', description: 'the license key as the buyer received it' };

const show = defineCommand({
  path: ['licenses', 'show'],
  summary: 'Show a license: its tool, state, activation limit and the devices it is active on',
  args: [KEY_ARG],
  example: 'licenses show ABCD-EFGH-IJKL-MNOP',
  async run(env, input) {
    const ctx = await env.open();
    const [license] = await licensesOf(ctx, { licenseKey: argument(input, 0) });
    if (!license) throw new DomainError('not_found', 'No license with that key.');
    return {
      data: license,
      text: sections([
        [
          null,
          details([
            ['License', license.licenseKey],
            ['Tool', license.toolName],
            ['Order', license.orderId],
            ['Status', license.status],
            ['Devices', `${license.devices.length} of ${license.activationLimit}`],
            ['Buyer may free', `${license.selfDeactivationsLeft} more from My Tools`],
            [
              'Seats',
              license.teamLicenseId ? `a seat of team license ${license.teamLicenseId}` : license.seats,
            ],
          ]),
        ],
        [
          'Seat holders ("licenses seats free <key> --member <id>" takes one back):',
          table(
            ['MEMBER', 'NAME', 'EMAIL', 'JOINED'],
            license.members.map((member) => [
              member.memberId,
              member.isOwner ? `${member.name} (owner)` : member.name,
              member.email,
              formatTime(member.joinedAt),
            ]),
            'None.',
          ),
        ],
        [
          'Active devices ("licenses deactivate <key> <device>" frees one):',
          table(
            ['DEVICE', 'NAME', 'ACTIVATED', 'LAST SEEN'],
            license.devices.map((device) => [
              shortId(device.id),
              device.name,
              formatTime(device.activatedAt),
              formatTime(device.lastSeenAt),
            ]),
            'None.',
          ),
        ],
      ]),
    };
  },
});

const deactivate = defineCommand({
  path: ['licenses', 'deactivate'],
  summary: 'Free one device of a license, so the buyer can activate another machine',
  args: [KEY_ARG, { name: 'device', description: 'the device, as "licenses show" lists it' }],
  example: 'licenses deactivate ABCD-EFGH-IJKL-MNOP 1a2b3c4d',
  details: 'It does not count against the buyer’s own allowance of devices freed from My Tools.',
  async run(env, input) {
    const ctx = await env.open();
    const freed = await deactivateDeviceAsOperator(
      ctx,
      { license: { licenseKey: argument(input, 0).trim() }, device: argument(input, 1) },
      env.actor,
    );
    return {
      data: freed,
      text: `${freed.name ?? 'The device'} (${shortId(freed.id)}) is deactivated; the license can be activated elsewhere.`,
    };
  },
});

const resetDeactivations = defineCommand({
  path: ['licenses', 'reset-deactivations'],
  summary: 'Let a buyer free devices from My Tools again (resets the self-service allowance)',
  args: [KEY_ARG],
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

const TEAM_KEY_ARG = { name: 'license-key', description: 'the team owner’s license key' };
const MEMBER_OPTION = {
  type: 'string',
  value: '<id|email>',
  description: 'the member, by account id or email, as "licenses show" lists them',
} as const;

const freeSeat = defineCommand({
  path: ['licenses', 'seats', 'free'],
  summary: 'Take a member’s seat of a team license back (their key answers REVOKED at once)',
  args: [TEAM_KEY_ARG],
  options: { member: MEMBER_OPTION },
  example: 'licenses seats free ABCD-EFGH-IJKL-MNOP --member priya@example.com',
  details: 'The member is emailed; the seat is free for the owner to give to someone else.',
  async run(env, input) {
    const member = requireOption(input.options.member, 'member', 'licenses seats free');
    const ctx = await env.open();
    const freed = await freeSeatAsOperator(ctx, { licenseKey: argument(input, 0), member }, env.actor);
    return {
      data: freed,
      text: `The seat of ${member} is free; their license ${freed.memberLicenseId} is revoked.`,
    };
  },
});

/** Who gets the seat: an email address, checked as the team page checks an invitation's. */
const moveInput = z.object({ to: teamInvitationRequestSchema.shape.email });

const moveSeat = defineCommand({
  path: ['licenses', 'seats', 'move'],
  summary: 'Move a member’s seat of a team license to someone else, invited by email',
  args: [TEAM_KEY_ARG],
  options: {
    member: MEMBER_OPTION,
    to: {
      type: 'string',
      value: '<email>',
      description: 'who gets the seat: they are emailed an invitation',
    },
  },
  example: 'licenses seats move ABCD-EFGH-IJKL-MNOP --member priya@example.com --to arjun@example.com',
  details:
    'The member’s license is revoked and they are emailed; the new person accepts from the invitation email.',
  async run(env, input) {
    const member = requireOption(input.options.member, 'member', 'licenses seats move');
    const { to } = parseCommandInput(moveInput, {
      options: { to: requireOption(input.options.to, 'to', 'licenses seats move') },
    });
    const ctx = await env.open();
    const moved = await moveSeatAsOperator(ctx, { licenseKey: argument(input, 0), member, to }, env.actor);
    return {
      data: moved,
      text: `The seat of ${member} moved: ${moved.invitation.email} is invited (until ${formatTime(new Date(moved.invitation.expiresAt))}).`,
    };
  },
});

export const licenseCommands = [show, deactivate, resetDeactivations, freeSeat, moveSeat];
