import type { FastifyInstance } from 'fastify';
import type { ReleasePublicKeyResponse } from '../../shared/releases';
import type { AppContext } from '../context';
import { releaseSigner } from './signing';

/** The public side of releases that needs no license: the key every release file is signed with. */
export async function releaseRoutes(app: FastifyInstance, ctx: AppContext): Promise<void> {
  app.get('/api/updates/public-key', async (_request, reply): Promise<ReleasePublicKeyResponse> => {
    reply.header('cache-control', 'public, max-age=300');
    const { kid, publicKey, sparklePublicEdKey, published } = releaseSigner(ctx);
    return { kid, publicKey, sparklePublicEdKey, previous: published.slice(1) };
  });
}
