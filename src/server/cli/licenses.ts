import { open, readFile, rm } from 'node:fs/promises';
import path from 'node:path';
import { z } from 'zod';
import { suspendLicenseSchema } from '../../shared/dashboard';
import { SELF_DEACTIVATION_LIMIT, SELF_DEACTIVATION_WINDOW_DAYS } from '../../shared/licenses';
import { teamInvitationRequestSchema } from '../../shared/teams';
import { DomainError } from '../kernel/domain-error';
import { activateWithoutInternet } from '../licenses/offline';
import {
  deactivateDeviceAsOperator,
  licensesOf,
  reinstateLicense,
  resetSelfDeactivations,
  suspendLicense,
} from '../licenses/operator';
import { freeSeatAsOperator, freeSeatsBeyondPaid, moveSeatAsOperator } from '../teams/operator';
import { details, formatTime, sections, shortId, table } from './format';
import { argument, CommandError, defineCommand, parseCommandInput, requireOption } from './framework';
import { userFile } from './tools';

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
            [
              'Status',
              license.suspendedReason ? `${license.status}: ${license.suspendedReason}` : license.status,
            ],
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
            ['DEVICE', 'NAME', 'ACTIVATED', 'LAST SEEN', 'OFFLINE FILE ENDS'],
            license.devices.map((device) => [
              shortId(device.id),
              device.name,
              formatTime(device.activatedAt),
              formatTime(device.lastSeenAt),
              // A computer activated without internet learns nothing (a refund, a suspension) before then.
              device.offlineUntil ? formatTime(device.offlineUntil) : 'online',
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

/** An activation request is one line of at most 1,000 characters; a file of more is not one. */
const REQUEST_FILE_LIMIT = {
  bytes: 4096,
  problem: 'an activation request is one line of at most 1,000 characters',
};

const offlineActivate = defineCommand({
  path: ['licenses', 'offline-activate'],
  summary:
    'Answer a computer’s activation request sent by email: write its response file (no internet needed)',
  args: [KEY_ARG],
  options: {
    request: {
      type: 'string',
      value: '<file>',
      description: 'the request the buyer sent (the file the tool saved, or the line it showed, in a file)',
    },
    out: {
      type: 'string',
      value: '<file>',
      description: 'where to write the response file to send back (a new file)',
    },
  },
  example:
    'licenses offline-activate ABCD1-EFGH2-IJKL3-MNOP4 --request ./activation-request.txt --out ./response.json',
  details:
    'Takes a seat as My Tools’ "Activate a computer without internet" does, for the tool’s offline period\n' +
    '("tools edit --offline-days"). The computer learns of no refund or suspension until its file ends.',
  async run(env, input) {
    const command = 'licenses offline-activate';
    const requestFile = await userFile(
      env,
      requireOption(input.options.request, 'request', command),
      REQUEST_FILE_LIMIT,
    );
    const out = path.resolve(env.cwd, requireOption(input.options.out, 'out', command));
    const requestText = await readFile(requestFile, 'utf8');
    // Made first, and only if it is new: a response is never written over another file, nor a seat taken for
    // nothing when the file cannot be written.
    const output = await open(out, 'wx', 0o600).catch((error: NodeJS.ErrnoException) => {
      if (error.code === 'EEXIST') throw new CommandError(`--out: ${out} exists; name a new file.`);
      if (error.code === 'ENOENT') throw new CommandError(`--out: no such folder: ${path.dirname(out)}.`);
      if (error.code === 'EACCES') throw new CommandError(`--out: cannot write ${out}: permission denied.`);
      throw error;
    });
    try {
      const ctx = await env.open();
      const issued = await activateWithoutInternet(
        ctx,
        { licenseKey: argument(input, 0) },
        requestText,
        env.actor,
      );
      await output.writeFile(issued.text);
      await output.close();
      return {
        data: { licenseId: issued.licenseId, device: issued.device, out },
        text: `${issued.device.name ?? 'The computer'} (${shortId(issued.device.id)}) is activated without internet until ${formatTime(issued.device.offlineUntil)}. Send ${out} to the buyer to load into the tool.`,
      };
    } catch (error) {
      await output.close();
      await rm(out, { force: true });
      throw error;
    }
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

const suspend = defineCommand({
  path: ['licenses', 'suspend'],
  summary: 'Suspend a license with a reason (a key shared on a forum, a payment reversed outside Razorpay)',
  args: [KEY_ARG],
  options: {
    reason: { type: 'string', value: '<text>', description: 'Why, as the buyer will read it (required)' },
  },
  example: 'licenses suspend ABCD-EFGH-IJKL-MNOP --reason "The key was posted on a public forum"',
  details:
    'Every instance answers SUSPENDED with the reason at the next check; its feeds and downloads stop, My Tools\n' +
    'shows why, and the buyer is emailed. A team license suspends its members’ seats too. "licenses reinstate"\n' +
    'undoes it.',
  async run(env, input) {
    // Named even when missing, so the refusal says --reason.
    const { reason } = parseCommandInput(suspendLicenseSchema, { options: { reason: input.options.reason } });
    const licenseKey = argument(input, 0).trim();
    const ctx = await env.open();
    const done = await suspendLicense(ctx, { license: { licenseKey }, reason }, env.actor);
    const seats = done.suspended > 1 ? ` with ${done.suspended - 1} member seat(s)` : '';
    return {
      data: { ...done, licenseKey, reason },
      text: `${licenseKey} is suspended${seats}: "${reason}". The buyer is emailed the reason.`,
    };
  },
});

const reinstate = defineCommand({
  path: ['licenses', 'reinstate'],
  summary: 'Lift a suspension made by hand: the license and its seats answer VALID again',
  args: [KEY_ARG],
  example: 'licenses reinstate ABCD-EFGH-IJKL-MNOP',
  details: 'A license suspended by an open payment dispute waits for the dispute’s outcome instead.',
  async run(env, input) {
    const licenseKey = argument(input, 0).trim();
    const ctx = await env.open();
    const done = await reinstateLicense(ctx, { license: { licenseKey } }, env.actor);
    const seats = done.reinstated > 1 ? ` with ${done.reinstated - 1} member seat(s)` : '';
    return {
      data: { ...done, licenseKey },
      text: `${licenseKey} is reinstated${seats}: it answers VALID again.`,
    };
  },
});

/** How the command below is named where another command's output points at it. */
export const FREE_BEYOND_PAID_COMMAND = 'licenses seats free-beyond-paid';

const freeBeyondPaid = defineCommand({
  path: ['licenses', 'seats', 'free-beyond-paid'],
  summary: 'Free the seats a team holds beyond those still paid for (after a refund of added seats)',
  args: [
    {
      name: 'team',
      description: 'the team license: the owner’s key, or the team license id "orders refund" names',
    },
  ],
  example: 'licenses seats free-beyond-paid ABCD-EFGH-IJKL-MNOP',
  details:
    'Pending invitations go first (the newest first), then the newest members’ seats: their licenses are revoked\n' +
    'and each is emailed. The owner’s seat is never freed.',
  async run(env, input) {
    const typed = argument(input, 0).trim();
    const ctx = await env.open();
    const teamLicenseId = UUID.test(typed) ? typed : await teamLicenseOfKey(ctx, typed);
    const freed = await freeSeatsBeyondPaid(ctx, { teamLicenseId }, env.actor);
    const members = freed.membersFreed.map((member) => member.email);
    return {
      data: { teamLicenseId, ...freed },
      text:
        `Cancelled ${freed.invitationsCancelled} pending invitation(s) and freed ${members.length} member seat(s)` +
        `${members.length > 0 ? ` (${members.join(', ')}; each is emailed)` : ''}.`,
    };
  },
});

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/** The team license an owner's key names (a member's key names no team). */
async function teamLicenseOfKey(ctx: Parameters<typeof licensesOf>[0], licenseKey: string): Promise<string> {
  const [license] = await licensesOf(ctx, { licenseKey });
  if (!license || license.teamLicenseId !== null)
    throw new DomainError('not_found', 'No team license with that key.');
  return license.id;
}

export const licenseCommands = [
  show,
  deactivate,
  offlineActivate,
  resetDeactivations,
  suspend,
  reinstate,
  freeSeat,
  moveSeat,
  freeBeyondPaid,
];
