import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import {
  activityQuerySchema,
  confirmEnrolmentRequestSchema,
  customersQuerySchema,
  type DashboardStatus,
  type EnrolmentDone,
  type EnrolmentStart,
  emptyRequestSchema,
  messagesQuerySchema,
  ordersQuerySchema,
  toolsQuerySchema,
  verifySecondFactorRequestSchema,
} from '../../shared/dashboard';
import { currentUser } from '../auth/session';
import type { AppContext } from '../context';
import { AppError, parseInput } from '../http/errors';
import { listActivity } from './activity';
import { customerDetail, listCustomers } from './customers';
import { listMessages, mailStatus } from './inbox';
import { listOrders, orderDetail } from './orders';
import { overview } from './overview';
import { confirmEnrolment, startEnrolment, verifySecondFactor } from './second-factor';
import { endDashboardSession, operatorState, requireDashboard } from './session';
import { adminTool, listAdminTools } from './tools';

/** Dashboard requests per operator per minute: generous for a person, a wall for a script gone wrong. */
const DASHBOARD_REQUESTS_PER_MINUTE = 300;
/** Second-factor attempts per network address per minute, on top of the per-account wrong-code lock. */
const SECOND_FACTOR_ATTEMPTS_PER_MINUTE = 20;

const noStore = (reply: FastifyReply) => reply.header('cache-control', 'no-store');

/**
 * /api/admin/…: the operator's dashboard (docs/product.md §12). Everything under /api/admin/auth/ is how an
 * operator passes the second factor; every other route needs it passed in this session (requireDashboard).
 */
export async function dashboardRoutes(app: FastifyInstance, ctx: AppContext): Promise<void> {
  const guarded = async (request: FastifyRequest, reply: FastifyReply) => {
    const operator = await requireDashboard(ctx, request);
    await ctx.limiter.consume({
      key: `admin-requests:${operator.user.id}`,
      limit: DASHBOARD_REQUESTS_PER_MINUTE,
      windowMs: 60 * 1000,
    });
    noStore(reply);
    return operator;
  };
  const limitAttempts = (request: FastifyRequest) =>
    ctx.limiter.consume({
      key: `admin-2fa-ip:${request.ip}`,
      limit: SECOND_FACTOR_ATTEMPTS_PER_MINUTE,
      windowMs: 60 * 1000,
    });

  app.get('/api/admin/auth/status', async (request, reply): Promise<DashboardStatus> => {
    noStore(reply);
    const user = await currentUser(ctx, request);
    if (!user) return { state: 'signed_out' };
    try {
      const state = await operatorState(ctx, request);
      const who = { email: state.user.email, name: state.user.name };
      if (!state.enrolled) return { state: 'enrol', ...who };
      return { state: state.verified ? 'ready' : 'verify', ...who };
    } catch (error) {
      if (error instanceof AppError && error.code === 'not_operator')
        return { state: 'not_operator', email: user.email };
      throw error;
    }
  });

  app.post('/api/admin/auth/enrol', async (request, reply): Promise<EnrolmentStart> => {
    parseInput(emptyRequestSchema, request.body);
    noStore(reply);
    await limitAttempts(request);
    const state = await operatorState(ctx, request);
    return startEnrolment(ctx, state.user);
  });

  app.post('/api/admin/auth/enrol/confirm', async (request, reply): Promise<EnrolmentDone> => {
    const input = parseInput(confirmEnrolmentRequestSchema, request.body);
    noStore(reply);
    await limitAttempts(request);
    const state = await operatorState(ctx, request);
    const recoveryCodes = await confirmEnrolment(
      ctx,
      { userId: state.user.id, email: state.user.email },
      state.sessionIdHash,
      input.code,
    );
    return { recoveryCodes };
  });

  app.post('/api/admin/auth/verify', async (request, reply): Promise<DashboardStatus> => {
    const input = parseInput(verifySecondFactorRequestSchema, request.body);
    noStore(reply);
    await limitAttempts(request);
    const state = await operatorState(ctx, request);
    await verifySecondFactor(
      ctx,
      { userId: state.user.id, email: state.user.email },
      state.sessionIdHash,
      input.code,
    );
    return { state: 'ready', email: state.user.email, name: state.user.name };
  });

  app.post('/api/admin/auth/sign-out', async (request, reply) => {
    parseInput(emptyRequestSchema, request.body);
    noStore(reply);
    const state = await operatorState(ctx, request);
    await endDashboardSession(ctx, state.sessionIdHash);
    return { message: 'Signed out of the dashboard.' };
  });

  app.get('/api/admin/overview', async (request, reply) => {
    await guarded(request, reply);
    return overview(ctx);
  });

  app.get('/api/admin/orders', async (request, reply) => {
    await guarded(request, reply);
    return listOrders(ctx, parseInput(ordersQuerySchema, request.query));
  });

  app.get<{ Params: { id: string } }>('/api/admin/orders/:id', async (request, reply) => {
    await guarded(request, reply);
    return orderDetail(ctx, request.params.id);
  });

  app.get('/api/admin/customers', async (request, reply) => {
    await guarded(request, reply);
    return listCustomers(ctx, parseInput(customersQuerySchema, request.query));
  });

  app.get<{ Params: { id: string } }>('/api/admin/customers/:id', async (request, reply) => {
    await guarded(request, reply);
    return customerDetail(ctx, request.params.id);
  });

  app.get('/api/admin/tools', async (request, reply) => {
    await guarded(request, reply);
    return listAdminTools(ctx, parseInput(toolsQuerySchema, request.query));
  });

  app.get<{ Params: { id: string } }>('/api/admin/tools/:id', async (request, reply) => {
    await guarded(request, reply);
    return adminTool(ctx, request.params.id);
  });

  app.get('/api/admin/messages', async (request, reply) => {
    await guarded(request, reply);
    return listMessages(ctx, parseInput(messagesQuerySchema, request.query));
  });

  app.get('/api/admin/mail', async (request, reply) => {
    await guarded(request, reply);
    return mailStatus(ctx);
  });

  app.get('/api/admin/activity', async (request, reply) => {
    await guarded(request, reply);
    return listActivity(ctx, parseInput(activityQuerySchema, request.query));
  });
}
