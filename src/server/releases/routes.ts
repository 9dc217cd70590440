import type { FastifyInstance } from 'fastify';
import { releasePublicKeySchema } from '../../shared/api-schemas';
import type { ReleasePublicKeyResponse } from '../../shared/releases';
import { refusals } from '../http/answers';
import type { AppContext } from '../kernel/context';
import { documented } from '../openapi/openapi';

const publicKeyRoute = documented({
  tags: ['Updates'],
  summary: 'The key that verifies release files',
  description: "SPKI PEM and Sparkle's base64 form, with the earlier keys still honoured.",
  response: { 200: releasePublicKeySchema, ...refusals() },
});

/** The public side of releases that needs no license: the key every release file is signed with. */
export async function releaseRoutes(app: FastifyInstance, ctx: AppContext): Promise<void> {
  app.get(
    '/api/updates/public-key',
    publicKeyRoute,
    async (_request, reply): Promise<ReleasePublicKeyResponse> => {
      reply.header('cache-control', 'public, max-age=300');
      const { kid, publicKey, sparklePublicEdKey, published } = ctx.releaseSigning;
      return { kid, publicKey, sparklePublicEdKey, previous: published.slice(1) };
    },
  );
}
