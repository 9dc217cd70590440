import { z } from 'zod';
import { AUTH_MESSAGES, isValidEmail } from './auth';
import { singleLineText } from './input-policy';
import { MAX_LENGTH } from './limits';

/**
 * Team licenses (docs/decisions/051-team-licenses.md): one order of N seats makes one team license owned by the
 * buyer, who holds one seat and gives the others by email; each member gets their own license of the tool. These
 * schemas are the team API's requests and answers, for the server's routes and the web's My Tools alike.
 */

/** How long an invitation link works. */
export const INVITATION_DAYS = 14;

/** Where an invitation email's link leads (the web's accept page): `${PUBLIC_URL}${TEAM_INVITATION_PATH}<token>`. */
export const TEAM_INVITATION_PATH = '/my-tools/team-invitations/';

export const TEAM_MESSAGES = {
  teamNotFound: 'Team license not found.',
  invitationNotFound: 'This invitation is not valid any more.',
  memberNotFound: 'No such member of this team.',
  noFreeSeat:
    'Every seat of this team is taken. Add seats, or remove a member or cancel an invitation first.',
  alreadyMember: 'That email already holds a seat of this team.',
  alreadyInvited: 'That email already has an invitation to this team.',
  ownerSeat: 'The owner’s own seat cannot be taken back.',
  alreadyHasTool: 'You already have this tool, so you cannot take a seat of it.',
  teamClosed: 'This team license is not active any more.',
  notATeam: 'Add seats to a license you bought.',
  tooManyInvitations: 'You have sent many invitations in the last hour. Please try again later.',
  addressInvitedEnough:
    'That email has been sent several invitations today. Please try again tomorrow, or ask them to contact us.',
} as const;

/** POST /api/teams/:licenseId/invitations */
export const teamInvitationRequestSchema = z.strictObject({
  email: singleLineText(MAX_LENGTH.email, AUTH_MESSAGES.emailInvalid).refine(
    isValidEmail,
    AUTH_MESSAGES.emailInvalid,
  ),
});

export const teamParamsSchema = z.strictObject({ licenseId: z.uuid({ error: 'Unknown team license' }) });
export const teamInvitationParamsSchema = z.strictObject({
  licenseId: z.uuid({ error: 'Unknown team license' }),
  invitationId: z.uuid({ error: 'Unknown invitation' }),
});
export const teamMemberParamsSchema = z.strictObject({
  licenseId: z.uuid({ error: 'Unknown team license' }),
  memberId: z.uuid({ error: 'Unknown member' }),
});
/** The token of an invitation link: 43 base64url characters (32 random bytes). */
export const invitationTokenParamsSchema = z.strictObject({
  token: z.string().regex(/^[A-Za-z0-9_-]{20,100}$/, { error: 'Unknown invitation' }),
});

export const teamInvitationSchema = z.object({
  id: z.string(),
  email: z.string(),
  invitedAt: z.string(),
  expiresAt: z.string(),
});
export type PendingInvitation = z.infer<typeof teamInvitationSchema>;

export const teamMemberSchema = z.object({
  /** The member's account id: what DELETE /api/teams/:licenseId/members/:memberId names. */
  memberId: z.string(),
  email: z.string(),
  name: z.string(),
  /** The buyer: holds the team license itself, and their seat cannot be taken back. */
  isOwner: z.boolean(),
  /** The member's own license (the team license itself for the owner). */
  licenseId: z.string(),
  joinedAt: z.string(),
  devices: z.array(z.object({ id: z.string(), name: z.string().nullable(), lastSeenAt: z.string() })),
});

/** GET /api/teams/:licenseId: seatsUsed counts the owner, the members and the pending invitations. */
export const teamSchema = z.object({
  licenseId: z.string(),
  toolId: z.string(),
  toolName: z.string(),
  seats: z.number(),
  seatsUsed: z.number(),
  invitations: z.array(teamInvitationSchema),
  members: z.array(teamMemberSchema),
});
export type Team = z.infer<typeof teamSchema>;

/** POST /api/teams/:licenseId/invitations → 201 */
export const teamInvitationAnswerSchema = z.object({ invitation: teamInvitationSchema });

/** GET /api/team-invitations/:token: what the invitee is asked to accept. */
export const invitationPreviewSchema = z.object({
  toolName: z.string(),
  ownerName: z.string(),
  email: z.string(),
  expiresAt: z.string(),
});
export type InvitationPreview = z.infer<typeof invitationPreviewSchema>;

/** POST /api/team-invitations/:token/accept: the member's own license of the tool. */
export const invitationAcceptedSchema = z.object({ licenseId: z.string(), toolId: z.string() });
export type InvitationAccepted = z.infer<typeof invitationAcceptedSchema>;

/** On My Tools' list (GET /api/my-tools/): a tool whose license is a team the user owns. */
export const ownedTeamSchema = z.object({ licenseId: z.string(), seats: z.number(), seatsUsed: z.number() });
/** On My Tools' list: a tool the user holds as a member of someone's team. */
export const teamOwnerSchema = z.object({ name: z.string() });
