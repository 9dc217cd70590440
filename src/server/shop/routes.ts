import type { FastifyInstance } from 'fastify';
import type { AppContext } from '../context';

export async function shopRoutes(_app: FastifyInstance, _ctx: AppContext): Promise<void> {}
