import multipart from '@fastify/multipart';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { adminReleaseSchema } from '../../../shared/dashboard-answers';
import {
  artifactFieldsSchema,
  createReleaseSchema,
  editReleaseSchema,
  releaseActionSchema,
} from '../../../shared/release-schemas';
import { type AdminRelease, RELEASE_FILE_MAX_BYTES, RELEASE_FILE_TOO_LARGE } from '../../../shared/releases';
import { asSentence } from '../../../shared/tool-rules';
import { refusals } from '../../http/answers';
import { AppError, badRequest, parseInput } from '../../http/errors';
import type { AppContext } from '../../kernel/context';
import { requireFreshCode } from '../../operator/second-factor';
import { findTool } from '../../operator/tool-lookup';
import {
  addArtifact,
  createRelease,
  editRelease,
  publishRelease,
  removeArtifact,
  toAdminRelease,
  yankRelease,
} from '../../releases/operator';
import { listReleases } from '../../releases/store';
import { FileTooLargeError } from '../../storage';
import { GUARD_REFUSALS, idParams, idPath, operatorOf } from './guard';

const artifactPath = z.object({ id: z.guid('Not an id.'), artifactId: z.guid('Not an id.') });

/** The artifact form: its small fields (platform, arch, kind, WinSparkle's installer arguments), then the file. */
const MULTIPART_LIMITS = {
  fields: 4,
  // Installer arguments are up to 500 characters (release-schemas.ts), up to 4 bytes each in UTF-8.
  fieldSize: 2048,
  files: 1,
  parts: 5,
  fileSize: RELEASE_FILE_MAX_BYTES + 1,
  headerPairs: 100,
};

/**
 * /api/admin/tools/:id/releases and /api/admin/releases/…: a tool's releases as the operator makes them
 * (issue 31). Publishing and yanking change what every buyer's updater sees, so each needs a fresh code.
 */
export async function dashboardReleaseRoutes(base: FastifyInstance, ctx: AppContext): Promise<void> {
  const app = base.withTypeProvider<ZodTypeProvider>();
  /** A release made or changed: the release as it now is. */
  const changed = { 200: adminReleaseSchema, ...refusals(...GUARD_REFUSALS, 400, 404, 409) };
  app.get(
    '/api/admin/tools/:id/releases',
    {
      schema: {
        params: idPath,
        response: { 200: z.array(adminReleaseSchema), ...refusals(...GUARD_REFUSALS, 400, 404) },
      },
    },
    async (request): Promise<AdminRelease[]> => {
      const tool = await findTool(ctx.db, request.params.id);
      return (await listReleases(ctx.db, tool.id)).map(toAdminRelease);
    },
  );

  app.post(
    '/api/admin/tools/:id/releases',
    { schema: { params: idPath, body: createReleaseSchema, response: changed } },
    async (request): Promise<AdminRelease> => {
      const toolId = request.params.id;
      const input = request.body;
      return toAdminRelease(await createRelease(ctx, toolId, input, operatorOf(ctx, request).actor));
    },
  );

  app.patch(
    '/api/admin/releases/:id',
    { schema: { params: idPath, body: editReleaseSchema, response: changed } },
    async (request): Promise<AdminRelease> => {
      const releaseId = request.params.id;
      const changes = request.body;
      return toAdminRelease(await editRelease(ctx, releaseId, changes, operatorOf(ctx, request).actor));
    },
  );

  app.delete(
    '/api/admin/releases/:id/artifacts/:artifactId',
    { schema: { params: artifactPath, response: changed } },
    async (request): Promise<AdminRelease> => {
      const { id, artifactId } = request.params;
      return toAdminRelease(await removeArtifact(ctx, id, artifactId, operatorOf(ctx, request).actor));
    },
  );

  for (const [action, operation] of [
    ['publish', publishRelease],
    ['yank', yankRelease],
  ] as const) {
    app.post(
      `/api/admin/releases/:id/${action}`,
      { schema: { params: idPath, body: releaseActionSchema, response: changed } },
      async (request): Promise<AdminRelease> => {
        const releaseId = request.params.id;
        const { code } = request.body;
        const { actor } = operatorOf(ctx, request);
        await requireFreshCode(ctx, actor, code);
        return toAdminRelease(await operation(ctx, releaseId, actor));
      },
    );
  }

  await app.register(async (scope) => {
    await scope.register(multipart, { limits: MULTIPART_LIMITS });
    const config = { uploadLimit: RELEASE_FILE_MAX_BYTES + 64 * 1024 };
    scope.post(
      '/api/admin/releases/:id/artifacts',
      {
        schema: {
          params: idPath,
          response: { ...changed, ...refusals(...GUARD_REFUSALS, 400, 404, 409, 413) },
        },
        config,
      },
      async (request): Promise<AdminRelease> => {
        try {
          return toAdminRelease(await uploadArtifact(ctx, request));
        } catch (error) {
          if (error instanceof FileTooLargeError) {
            throw new AppError(413, 'payload_too_large', asSentence(RELEASE_FILE_TOO_LARGE));
          }
          throw error;
        }
      },
    );
  });
}

/** The form sends platform, arch and kind before the file, so they are checked before a byte is stored. */
async function uploadArtifact(ctx: AppContext, request: FastifyRequest) {
  const releaseId = idParams(request);
  const { actor } = operatorOf(ctx, request);
  if (!request.isMultipart()) throw badRequest('Send the file as multipart/form-data.');
  const part = await request.file();
  if (!part) throw badRequest('Choose the file to upload.', { file: 'Choose the file to upload.' });
  const field = (name: string) => {
    const value = part.fields[name];
    return value && 'value' in value ? value.value : undefined;
  };
  const fields = parseInput(artifactFieldsSchema, {
    platform: field('platform'),
    arch: field('arch'),
    kind: field('kind'),
    installerArguments: field('installerArguments'),
  });
  const fileName = part.filename.split(/[/\\]/).pop() ?? '';
  const { release } = await addArtifact(ctx, releaseId, { ...fields, fileName, stream: part.file }, actor);
  return release;
}
