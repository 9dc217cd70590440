import type { FastifyInstance } from 'fastify';
import type { AppContext } from '../context';

export async function locationRoutes(_app: FastifyInstance, _ctx: AppContext): Promise<void> {}
