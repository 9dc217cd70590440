import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import {
  invitationAcceptedSchema,
  invitationPreviewSchema,
  invitationTokenParamsSchema,
  teamInvitationAnswerSchema,
  teamInvitationParamsSchema,
  teamInvitationRequestSchema,
  teamMemberParamsSchema,
  teamParamsSchema,
  teamSchema,
} from '../../shared/teams';
import { requireUser } from '../auth/session';
import { noBody, refusals } from '../http/answers';
import { CALLER_FIRST, refuseInvalidInput } from '../http/route-schemas';
import type { AppContext } from '../kernel/context';
import { documented, SESSION } from '../openapi/openapi';
import {
  acceptInvitation,
  cancelInvitation,
  inviteToTeam,
  previewInvitation,
  removeMember,
  teamOf,
} from './teams';

/**
 * Team licenses on My Tools (decision 051): the owner's team (anyone else gets 404), invitations by email, and the
 * invitee's side of the emailed link. Session cookie and CSRF token like the rest of the site.
 */
export async function teamRoutes(base: FastifyInstance, ctx: AppContext): Promise<void> {
  const app = base.withTypeProvider<ZodTypeProvider>();

  app.get(
    '/api/teams/:licenseId',
    documented(
      {
        tags: ['Account'],
        summary: 'A team license the buyer owns: seats, pending invitations and members with their devices',
        security: SESSION,
        params: teamParamsSchema,
        response: { 200: teamSchema, ...refusals(400, 401, 404) },
      },
      CALLER_FIRST,
    ),
    async (request, reply) => {
      const user = await requireUser(ctx, request);
      refuseInvalidInput(request);
      const { licenseId } = request.params;
      reply.header('cache-control', 'no-store');
      return teamOf(ctx, user.id, licenseId);
    },
  );

  app.post(
    '/api/teams/:licenseId/invitations',
    documented(
      {
        tags: ['Account'],
        summary: 'Invite someone by email to a free seat of the team',
        description:
          'The invitation holds a seat until accepted, cancelled or 14 days old. 409 when no seat is free.',
        security: SESSION,
        params: teamParamsSchema,
        body: teamInvitationRequestSchema,
        response: { 201: teamInvitationAnswerSchema, ...refusals(400, 401, 403, 404, 409) },
      },
      CALLER_FIRST,
    ),
    async (request, reply) => {
      const user = await requireUser(ctx, request);
      refuseInvalidInput(request);
      const { licenseId } = request.params;
      const { email } = request.body;
      const invitation = await inviteToTeam(ctx, user.id, licenseId, email);
      return reply.code(201).send({ invitation });
    },
  );

  app.delete(
    '/api/teams/:licenseId/invitations/:invitationId',
    documented(
      {
        tags: ['Account'],
        summary: 'Cancel a pending invitation (its seat is free again)',
        security: SESSION,
        params: teamInvitationParamsSchema,
        response: { 204: noBody('Cancelled: its seat is free again'), ...refusals(400, 401, 403, 404) },
      },
      CALLER_FIRST,
    ),
    async (request, reply) => {
      const user = await requireUser(ctx, request);
      refuseInvalidInput(request);
      const { licenseId, invitationId } = request.params;
      await cancelInvitation(ctx, user.id, licenseId, invitationId);
      return reply.code(204).send(null);
    },
  );

  app.delete(
    '/api/teams/:licenseId/members/:memberId',
    documented(
      {
        tags: ['Account'],
        summary: "Take a member's seat back",
        description:
          "The member's license is revoked at once (validate answers REVOKED) and the member is emailed.",
        security: SESSION,
        params: teamMemberParamsSchema,
        response: { 204: noBody('The seat is taken back'), ...refusals(400, 401, 403, 404, 409) },
      },
      CALLER_FIRST,
    ),
    async (request, reply) => {
      const user = await requireUser(ctx, request);
      refuseInvalidInput(request);
      const { licenseId, memberId } = request.params;
      await removeMember(ctx, user.id, licenseId, memberId);
      return reply.code(204).send(null);
    },
  );

  app.get(
    '/api/team-invitations/:token',
    documented({
      tags: ['Account'],
      summary: 'What an invitation link offers (anyone holding the link)',
      params: invitationTokenParamsSchema,
      response: { 200: invitationPreviewSchema, ...refusals(400, 404) },
    }),
    async (request, reply) => {
      const { token } = request.params;
      reply.header('cache-control', 'no-store');
      return previewInvitation(ctx, token);
    },
  );

  app.post(
    '/api/team-invitations/:token/accept',
    documented(
      {
        tags: ['Account'],
        summary: 'Take the seat an invitation offers: the signed-in account gets its own license of the tool',
        security: SESSION,
        params: invitationTokenParamsSchema,
        response: { 200: invitationAcceptedSchema, ...refusals(400, 401, 403, 404, 409) },
      },
      CALLER_FIRST,
    ),
    async (request) => {
      const user = await requireUser(ctx, request);
      refuseInvalidInput(request);
      const { token } = request.params;
      return acceptInvitation(ctx, user, token);
    },
  );
}
