import multipart from '@fastify/multipart';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { freshCodeSchema, toolInputSchema, toolsQuerySchema } from '../../../shared/dashboard';
import {
  adminEditionSchema,
  dashboardEditionChangesSchema,
  dashboardNewEditionSchema,
} from '../../../shared/edition-schemas';
import { asSentence, FILE_TOO_LARGE, TOOL_FILE_MAX_BYTES } from '../../../shared/tool-rules';
import { AppError, badRequest, parseInput } from '../../http/errors';
import type { AppContext } from '../../kernel/context';
import { undocumented } from '../../openapi/openapi';
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
import { idParams, idPath, operatorOf, toolEditionPath } from './guard';

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
  app.get('/api/admin/tools', { schema: { querystring: toolsQuerySchema } }, async (request) =>
    listAdminTools(ctx, request.query),
  );

  app.get('/api/admin/tools/:id', { schema: { params: idPath } }, async (request) =>
    toolForDashboard(ctx, request.params.id),
  );

  app.post('/api/admin/tools', { schema: { body: toolInputSchema } }, async (request) => {
    const input = request.body;
    const { actor } = operatorOf(request);
    await requireFreshCode(ctx, actor, parseInput(freshCodeSchema, { code: input.code }).code);
    return createToolFromForm(ctx, input, actor);
  });

  app.post('/api/admin/tools/:id', { schema: { params: idPath, body: toolInputSchema } }, async (request) => {
    const id = request.params.id;
    const input = request.body;
    const { actor } = operatorOf(request);
    if (await changesPrices(ctx, id, input)) {
      await requireFreshCode(ctx, actor, parseInput(freshCodeSchema, { code: input.code }).code);
    }
    return updateToolFromForm(ctx, id, input, actor);
  });

  // A tool's editions (decision 056): each answer is the tool's editions as they now are.
  const editions = z.array(adminEditionSchema);
  app.get(
    '/api/admin/tools/:id/editions',
    undocumented({ params: idPath, response: { 200: editions } }),
    async (request) => editionsForDashboard(ctx, request.params.id),
  );

  app.post(
    '/api/admin/tools/:id/editions',
    undocumented({ params: idPath, body: dashboardNewEditionSchema, response: { 200: editions } }),
    async (request) => {
      const { code, ...edition } = request.body;
      const { actor } = operatorOf(request);
      await requireFreshCode(ctx, actor, parseInput(freshCodeSchema, { code }).code);
      return addEditionFromForm(ctx, request.params.id, edition, actor);
    },
  );

  app.post(
    '/api/admin/tools/:id/editions/:editionId',
    undocumented({
      params: toolEditionPath,
      body: dashboardEditionChangesSchema,
      response: { 200: editions },
    }),
    async (request) => {
      const { id, editionId } = request.params;
      const { code, ...changes } = request.body;
      const { actor } = operatorOf(request);
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
    scope.post('/api/admin/tools/:id/file', { schema: { params: idPath }, config }, async (request) => {
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
  const { actor } = operatorOf(request);
  if (!request.isMultipart()) throw badRequest('Send the file as multipart/form-data.');
  const part = await request.file();
  if (!part) throw badRequest('Choose the file to upload.', { file: 'Choose the file to upload.' });
  const codeField = part.fields.code;
  const typed = codeField && 'value' in codeField ? codeField.value : undefined;
  const { code } = parseInput(freshCodeSchema, { code: typed });
  await requireFreshCode(ctx, actor, code);
  return attachToolFileFromForm(ctx, id, { fileName: part.filename, stream: part.file }, actor);
}
