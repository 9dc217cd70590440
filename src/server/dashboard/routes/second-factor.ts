import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import type { z } from 'zod';
import { messageAnswerSchema } from '../../../shared/api-schemas';
import {
  confirmEnrolmentRequestSchema,
  type DashboardStatus,
  type EnrolmentDone,
  type EnrolmentStart,
  emptyRequestSchema,
  verifySecondFactorRequestSchema,
} from '../../../shared/dashboard';
import {
  dashboardStatusSchema,
  enrolmentDoneSchema,
  enrolmentStartSchema,
} from '../../../shared/dashboard-answers';
import { currentUser } from '../../auth/session';
import { refusals } from '../../http/answers';
import type { AppContext } from '../../kernel/context';
import { DomainError } from '../../kernel/domain-error';
import { confirmEnrolment, startEnrolment, verifySecondFactor } from '../../operator/second-factor';
import { endDashboardSession, operatorState } from '../session';
import { guardOperatorAccount, noStore } from './guard';

/** Second-factor attempts per network address per minute, on top of the per-account wrong-code lock. */
const SECOND_FACTOR_ATTEMPTS_PER_MINUTE = 20;

/** Where the signed-in visitor stands with the dashboard; answers everyone (the web app asks it first). */
async function dashboardStatus(ctx: AppContext, request: FastifyRequest): Promise<DashboardStatus> {
  const user = await currentUser(ctx, request);
  if (!user) return { state: 'signed_out' };
  try {
    const state = await operatorState(ctx, request);
    const who = { email: state.user.email, name: state.user.name };
    if (!state.enrolled) return { state: 'enrol', ...who };
    return { state: state.verified ? 'ready' : 'verify', ...who };
  } catch (error) {
    if (error instanceof DomainError && error.code === 'not_operator')
      return { state: 'not_operator', email: user.email };
    throw error;
  }
}

/** /api/admin/auth/…: how an operator passes the second factor (every route but status needs an operator). */
export async function secondFactorRoutes(app: FastifyInstance, ctx: AppContext): Promise<void> {
  const status = { schema: { response: { 200: dashboardStatusSchema, ...refusals() } } };
  app.get('/api/admin/auth/status', status, async (request, reply) => {
    noStore(reply);
    return dashboardStatus(ctx, request);
  });

  await app.register(async (base) => {
    const scope = base.withTypeProvider<ZodTypeProvider>();
    guardOperatorAccount(scope, ctx);
    /** The operator's account check (401, 403), the CSRF check (403), the attempts' limit (429), the code (400). */
    const answers = <Done extends z.ZodType>(done: Done) => ({
      200: done,
      ...refusals(400, 401, 403, 409, 429),
    });
    const attempt = async (request: FastifyRequest) => {
      await ctx.limiter.consume({
        key: `admin-2fa-ip:${request.ip}`,
        limit: SECOND_FACTOR_ATTEMPTS_PER_MINUTE,
        windowMs: 60 * 1000,
      });
      const state = await operatorState(ctx, request);
      return { ...state, operator: { userId: state.user.id, email: state.user.email } };
    };

    scope.post(
      '/api/admin/auth/enrol',
      { schema: { body: emptyRequestSchema, response: answers(enrolmentStartSchema) } },
      async (request): Promise<EnrolmentStart> => {
        return startEnrolment(ctx, (await attempt(request)).user);
      },
    );

    scope.post(
      '/api/admin/auth/enrol/confirm',
      { schema: { body: confirmEnrolmentRequestSchema, response: answers(enrolmentDoneSchema) } },
      async (request): Promise<EnrolmentDone> => {
        const { code } = request.body;
        const state = await attempt(request);
        return { recoveryCodes: await confirmEnrolment(ctx, state.operator, state.sessionIdHash, code) };
      },
    );

    scope.post(
      '/api/admin/auth/verify',
      { schema: { body: verifySecondFactorRequestSchema, response: answers(dashboardStatusSchema) } },
      async (request): Promise<DashboardStatus> => {
        const { code } = request.body;
        const state = await attempt(request);
        await verifySecondFactor(ctx, state.operator, state.sessionIdHash, code);
        return { state: 'ready', email: state.user.email, name: state.user.name };
      },
    );

    const signOut = { schema: { body: emptyRequestSchema, response: answers(messageAnswerSchema) } };
    scope.post('/api/admin/auth/sign-out', signOut, async (request) => {
      const state = await operatorState(ctx, request);
      await endDashboardSession(ctx, state.sessionIdHash);
      return { message: 'Signed out of the dashboard.' };
    });
  });
}
