import multipart from '@fastify/multipart';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { freshCodeSchema, toolInputSchema, toolsQuerySchema } from '../../../shared/dashboard';
import { adminToolSchema, toolsPageSchema } from '../../../shared/dashboard-answers';
import {
  adminEditionSchema,
  dashboardEditionChangesSchema,
  dashboardNewEditionSchema,
} from '../../../shared/edition-schemas';
import { asSentence, FILE_TOO_LARGE, TOOL_FILE_MAX_BYTES } from '../../../shared/tool-rules';
import { refusals } from '../../http/answers';
import { AppError, badRequest, parseInput } from '../../http/errors';
import type { AppContext } from '../../kernel/context';
import { requireFreshCode } from '../../operator/second-factor';
import { FileTooLargeError } from '../../storage';
import {
  addEditionFromForm,
  attachToolFileFromForm,
  changesEditionPrices,
  changesPrices,
  createToolFromForm,
  editEditionFromForm,
  editionsForDashboard,
  listAdminTools,
  toolForDashboard,
  updateToolFromForm,
} from '../tools';
import { GUARD_REFUSALS, idParams, idPath, operatorOf, toolEditionPath } from './guard';

const MULTIPART_LIMITS = {
  fields: 1,
  fieldSize: 64,
  files: 1,
  parts: 2,
  fileSize: TOOL_FILE_MAX_BYTES + 1,
  headerPairs: 100,
};

/** /api/admin/tools: the catalogue as the operator manages it; prices and files need a fresh code. */
export async function toolRoutes(base: FastifyInstance, ctx: AppContext): Promise<void> {
  const app = base.withTypeProvider<ZodTypeProvider>();
  const tool = { 200: adminToolSchema };
  const list = {
    schema: {
      querystring: toolsQuerySchema,
      response: { 200: toolsPageSchema, ...refusals(...GUARD_REFUSALS, 400) },
    },
  };
  app.get('/api/admin/tools', list, async (request) => listAdminTools(ctx, request.query));

  const one = { schema: { params: idPath, response: { ...tool, ...refusals(...GUARD_REFUSALS, 400, 404) } } };
  app.get('/api/admin/tools/:id', one, async (request) => toolForDashboard(ctx, request.params.id));

  const add = {
    schema: { body: toolInputSchema, response: { ...tool, ...refusals(...GUARD_REFUSALS, 400, 409) } },
  };
  app.post('/api/admin/tools', add, async (request) => {
    const input = request.body;
    const { actor } = operatorOf(ctx, request);
    await requireFreshCode(ctx, actor, parseInput(freshCodeSchema, { code: input.code }).code);
    return createToolFromForm(ctx, input, actor);
  });

  const change = {
    schema: {
      params: idPath,
      body: toolInputSchema,
      response: { ...tool, ...refusals(...GUARD_REFUSALS, 400, 404, 409) },
    },
  };
  app.post('/api/admin/tools/:id', change, async (request) => {
    const id = request.params.id;
    const input = request.body;
    const { actor } = operatorOf(ctx, request);
    if (await changesPrices(ctx, id, input)) {
      await requireFreshCode(ctx, actor, parseInput(freshCodeSchema, { code: input.code }).code);
    }
    return updateToolFromForm(ctx, id, input, actor);
  });

  // A tool's editions (decision 056): each answer is the tool's editions as they now are.
  const editions = z.array(adminEditionSchema);
  app.get(
    '/api/admin/tools/:id/editions',
    { schema: { params: idPath, response: { 200: editions, ...refusals(...GUARD_REFUSALS, 400, 404) } } },
    async (request) => editionsForDashboard(ctx, request.params.id),
  );

  app.post(
    '/api/admin/tools/:id/editions',
    {
      schema: {
        params: idPath,
        body: dashboardNewEditionSchema,
        response: { 200: editions, ...refusals(...GUARD_REFUSALS, 400, 404, 409) },
      },
    },
    async (request) => {
      const { code, ...edition } = request.body;
      const { actor } = operatorOf(ctx, request);
      await requireFreshCode(ctx, actor, parseInput(freshCodeSchema, { code }).code);
      return addEditionFromForm(ctx, request.params.id, edition, actor);
    },
  );

  app.post(
    '/api/admin/tools/:id/editions/:editionId',
    {
      schema: {
        params: toolEditionPath,
        body: dashboardEditionChangesSchema,
        response: { 200: editions, ...refusals(...GUARD_REFUSALS, 400, 404, 409) },
      },
    },
    async (request) => {
      const { id, editionId } = request.params;
      const { code, ...changes } = request.body;
      const { actor } = operatorOf(ctx, request);
      if (await changesEditionPrices(ctx, id, editionId, changes)) {
        await requireFreshCode(ctx, actor, parseInput(freshCodeSchema, { code }).code);
      }
      return editEditionFromForm(ctx, id, editionId, changes, actor);
    },
  );

  await app.register(async (scope) => {
    await scope.register(multipart, { limits: MULTIPART_LIMITS });
    // The file plus the form's few small parts; the file itself is held to its limit as it streams.
    const config = { uploadLimit: TOOL_FILE_MAX_BYTES + 64 * 1024 };
    const upload = {
      schema: { params: idPath, response: { ...tool, ...refusals(...GUARD_REFUSALS, 400, 404, 413) } },
      config,
    };
    scope.post('/api/admin/tools/:id/file', upload, async (request) => {
      try {
        return await uploadToolFile(ctx, request);
      } catch (error) {
        if (error instanceof FileTooLargeError) {
          throw new AppError(413, 'payload_too_large', asSentence(FILE_TOO_LARGE));
        }
        throw error;
      }
    });
  });
}

/** The form sends the code before the file, so it is checked before a byte of the file is stored. */
async function uploadToolFile(ctx: AppContext, request: FastifyRequest) {
  const id = idParams(request);
  const { actor } = operatorOf(ctx, request);
  if (!request.isMultipart()) throw badRequest('Send the file as multipart/form-data.');
  const part = await request.file();
  if (!part) throw badRequest('Choose the file to upload.', { file: 'Choose the file to upload.' });
  const codeField = part.fields.code;
  const typed = codeField && 'value' in codeField ? codeField.value : undefined;
  const { code } = parseInput(freshCodeSchema, { code: typed });
  await requireFreshCode(ctx, actor, code);
  return attachToolFileFromForm(ctx, id, { fileName: part.filename, stream: part.file }, actor);
}
