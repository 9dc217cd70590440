import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { z } from 'zod';
import { parseInput } from '../../http/errors';
import type { AppContext } from '../../kernel/context';
import { type DashboardOperator, operatorState, requireDashboard } from '../session';

/** Dashboard requests per operator per minute: generous for a person, a wall for a script gone wrong. */
const DASHBOARD_REQUESTS_PER_MINUTE = 300;

export const noStore = (reply: FastifyReply) => reply.header('cache-control', 'no-store');

/**
 * What the guard answers on every data route before the route runs: 401 signed out; 403 not an operator, the
 * second factor not passed in this session, or no CSRF token; 429 past the operator's requests a minute. For
 * `refusals(...GUARD_REFUSALS, …)`.
 */
export const GUARD_REFUSALS = [401, 403, 429] as const;

/** Who each request of a guarded scope is: the operator its guard let in, until the request is gone. */
export type DashboardOperators = WeakMap<FastifyRequest, DashboardOperator>;

declare module '../../kernel/context' {
  interface AppContext {
    dashboardOperators: DashboardOperators;
  }
}

export const createDashboardOperators = (): DashboardOperators => new WeakMap();

/** The operator the scope's guard let in (only callable inside a guarded scope). */
export function operatorOf(
  ctx: Pick<AppContext, 'dashboardOperators'>,
  request: FastifyRequest,
): DashboardOperator {
  const operator = ctx.dashboardOperators.get(request);
  if (!operator) throw new Error('dashboard route outside the guarded scope');
  return operator;
}

/**
 * The one check of every dashboard data route, as a scope's onRequest hook: it runs before the body is read, so a
 * caller who is not a verified operator gets 401/403 and never learns a route's schema from a 400.
 */
export function guardDashboard(scope: FastifyInstance, ctx: AppContext): void {
  scope.addHook('onRequest', async (request, reply) => {
    const operator = await requireDashboard(ctx, request);
    await ctx.limiter.consume({
      key: `admin-requests:${operator.user.id}`,
      limit: DASHBOARD_REQUESTS_PER_MINUTE,
      windowMs: 60 * 1000,
    });
    noStore(reply);
    ctx.dashboardOperators.set(request, operator);
  });
}

/** The second factor's routes need a signed-in operator (enrolled or not) before their body is read. */
export function guardOperatorAccount(scope: FastifyInstance, ctx: AppContext): void {
  scope.addHook('onRequest', async (request, reply) => {
    await operatorState(ctx, request);
    noStore(reply);
  });
}

const id = z.guid('Not an id.');

/** `:id` of a dashboard route: a UUID, or 400 with the field's error before the database is asked. */
export const idPath = z.object({ id });

/** `:id` (the license) and `:deviceId` of a license's device. */
export const licenseDevicePath = z.object({ id, deviceId: id });

/** `:id` (the tool) and `:editionId` of one of its editions. */
export const toolEditionPath = z.object({ id, editionId: id });

/** `:id` as its route's schema (`idPath`) let it through, for the upload helpers that take the bare request. */
export const idParams = (request: FastifyRequest) => parseInput(idPath, request.params).id;
