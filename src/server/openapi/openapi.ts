import swagger, { type FastifyDynamicSwaggerOptions } from '@fastify/swagger';
import type {
  FastifyContextConfig,
  FastifyInstance,
  FastifySchema,
  FastifySerializerCompiler,
} from 'fastify';
import {
  jsonSchemaTransform,
  jsonSchemaTransformObject,
  serializerCompiler,
} from 'fastify-type-provider-zod';
import { $ZodType } from 'zod/v4/core';

/**
 * The public API described from its routes' schemas (docs/decisions/047-openapi-and-checkout-recovery.md): the
 * shared zod schemas through fastify-type-provider-zod's transform, and the license API's JSON response schemas
 * (which Fastify also compiles into that API's serialiser) as they are. Only routes tagged with one of TAGS are in
 * the document; the dashboard, the dev mailbox and the site's pages stay out.
 */

export const OPENAPI_PATH = '/api/openapi.json';

export const TAGS = [
  { name: 'License API', description: 'Called by desktop tools: docs/license-api.md' },
  { name: 'Updates', description: 'Release keys for the tools and their updaters: docs/updates.md' },
  {
    name: 'Shop',
    description: 'The catalogue, coupons, payments and free trials, as the browser calls them',
  },
  { name: 'Account', description: 'The signed-in buyer: orders, licenses and email preferences' },
] as const;

export type ApiTag = (typeof TAGS)[number]['name'];

const isZod = (schema: unknown): schema is $ZodType => schema instanceof $ZodType;

type Transform = NonNullable<FastifyDynamicSwaggerOptions['transform']>;

/** The provider's transform for the zod parts; JSON schemas (the license API's answers) pass through as they are. */
const transform: Transform = (document) => {
  const { schema, url } = document;
  const response = (schema as FastifySchema | undefined)?.response as Record<string, unknown> | undefined;
  if (!schema || !response) return jsonSchemaTransform(document);
  const zodResponses = Object.fromEntries(Object.entries(response).filter(([, each]) => isZod(each)));
  const jsonResponses = Object.fromEntries(Object.entries(response).filter(([, each]) => !isZod(each)));
  const done = jsonSchemaTransform({ ...document, schema: { ...schema, response: zodResponses } });
  const transformed = done.schema as FastifySchema;
  return {
    schema: { ...transformed, response: { ...(transformed.response as object), ...jsonResponses } },
    url,
  };
};

/** Registers the generator (before any route, so it sees them all) and `GET /api/openapi.json`. */
export async function registerOpenApi(app: FastifyInstance, publicUrl: string): Promise<void> {
  await app.register(swagger, {
    openapi: {
      openapi: '3.1.0',
      info: {
        title: 'Utility tools API',
        version: '1.0.0',
        description:
          'The license, trial and update API the desktop tools call, and the shop and account calls the browser makes. ' +
          'Calls marked with the cookie session need a signed-in buyer and, when unsafe, the X-CSRFToken header.',
      },
      servers: [{ url: publicUrl }],
      tags: [...TAGS],
      components: {
        securitySchemes: {
          session: { type: 'apiKey', in: 'cookie', name: 'sessionid' },
          csrf: { type: 'apiKey', in: 'header', name: 'X-CSRFToken' },
        },
      },
    },
    hideUntagged: true,
    transform,
    transformObject: jsonSchemaTransformObject,
  });
  app.get(OPENAPI_PATH, (_request, reply) => {
    reply.header('cache-control', 'public, max-age=300');
    return reply.type('application/json; charset=utf-8').send(JSON.stringify(app.swagger()));
  });
}

type DocumentedSchema = {
  tags: [ApiTag];
  summary: string;
  description?: string;
  body?: unknown;
  querystring?: unknown;
  params?: unknown;
  response: Record<number, unknown>;
  security?: Array<Record<string, string[]>>;
};

/**
 * Route options that put a route in the document. Its body, query and params are validated by Fastify from these
 * schemas (src/server/http/route-schemas.ts) and reach the handler parsed and typed; zod answers are serialised
 * from their schema (what the schema does not name is not sent). JSON response schemas (the license API's) keep
 * Fastify's compiled serialiser.
 */
export function documented<const S extends DocumentedSchema>(schema: S, config: FastifyContextConfig = {}) {
  const answers = Object.values(schema.response);
  if (!answers.every(isZod)) {
    // The license API's answers: Fastify compiles them into its serialiser, which a zod answer beside them would replace.
    if (answers.some(isZod)) throw new Error(`${schema.summary}: answers are all zod or all JSON schema`);
    return { schema, config };
  }
  return {
    schema,
    config,
    serializerCompiler: serializerCompiler as unknown as FastifySerializerCompiler<S>,
  };
}

/**
 * Route options of a route the document leaves out (the dashboard's) that declares its answers as zod schemas:
 * serialised from them as a documented route's are, so what the schema does not name is not sent.
 */
export function undocumented<const S extends { response: Record<number, $ZodType> }>(schema: S) {
  return { schema, serializerCompiler: serializerCompiler as unknown as FastifySerializerCompiler<S> };
}

/** Signed-in calls: the session cookie, and the CSRF header on unsafe methods. */
export const SESSION = [{ session: [], csrf: [] }];
