import swagger, { type FastifyDynamicSwaggerOptions } from '@fastify/swagger';
import type { FastifyContextConfig, FastifyInstance, FastifySchema } from 'fastify';
import { jsonSchemaTransform, jsonSchemaTransformObject } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { isZodAnswer, refusals } from '../http/answers';

/**
 * The public API described from its routes' schemas (docs/decisions/047-openapi-and-checkout-recovery.md): the
 * shared zod schemas through fastify-type-provider-zod's transform, and the license API's JSON response schemas
 * (which Fastify also compiles into that API's serialiser) as they are. Only routes tagged with one of TAGS are in
 * the document: every call a program may make (docs/decisions/065-every-route-declares-its-answers.md). The
 * operator's dashboard, the development-only mailbox and Razorpay emulator, and the site's pages stay out; their
 * routes declare their answers all the same.
 */

export const OPENAPI_PATH = '/api/openapi.json';

export const TAGS = [
  { name: 'License API', description: 'Called by desktop tools: docs/license-api.md' },
  {
    name: 'Updates',
    description: 'Release keys, and the update feeds and files the tools’ updaters read: docs/updates.md',
  },
  {
    name: 'Shop',
    description: 'The catalogue, coupons, payments and free trials, as the browser calls them',
  },
  {
    name: 'Account',
    description: 'The signed-in buyer: orders, licenses, teams, downloads, settings and email preferences',
  },
  { name: 'Sign-in', description: 'Signing up, in and out, a forgotten password, and passkeys' },
  { name: 'Site', description: 'The CSRF token, the visitor’s currency and the contact form' },
  {
    name: 'Service',
    description: 'For load balancers and monitoring: liveness, readiness, metrics, and this document',
  },
] as const;

export type ApiTag = (typeof TAGS)[number]['name'];

type Transform = NonNullable<FastifyDynamicSwaggerOptions['transform']>;

/** The provider's transform for the zod parts; JSON schemas (the license API's answers) pass through as they are. */
const transform: Transform = (document) => {
  const { schema, url } = document;
  const response = (schema as FastifySchema | undefined)?.response as Record<string, unknown> | undefined;
  if (!schema || !response) return jsonSchemaTransform(document);
  const zodResponses = Object.fromEntries(Object.entries(response).filter(([, each]) => isZodAnswer(each)));
  const jsonResponses = Object.fromEntries(Object.entries(response).filter(([, each]) => !isZodAnswer(each)));
  const done = jsonSchemaTransform({ ...document, schema: { ...schema, response: zodResponses } });
  const transformed = done.schema as FastifySchema;
  return {
    schema: { ...transformed, response: { ...(transformed.response as object), ...jsonResponses } },
    url,
  };
};

/** Registers the generator: before any route, so that it sees them all (it collects them as they are added). */
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
          metricsToken: { type: 'http', scheme: 'bearer', description: 'METRICS_TOKEN' },
        },
      },
    },
    hideUntagged: true,
    transform,
    transformObject: jsonSchemaTransformObject,
  });
}

/** `GET /api/openapi.json`: the document of every route registered (after the metrics hook, so it is timed too). */
export function openApiRoutes(app: FastifyInstance): void {
  const thisDocument = documented({
    tags: ['Service'],
    summary: 'This document: OpenAPI 3.1, made from the routes’ own schemas',
    response: {
      200: z
        .object({ openapi: z.literal('3.1.0'), paths: z.record(z.string(), z.unknown()) })
        .catchall(z.unknown()),
      ...refusals(),
    },
  });
  app.get(OPENAPI_PATH, thisDocument, (_request, reply) => {
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
  /** Per status (`200`, `404`, `5xx`): src/server/http/answers.ts. */
  response: Record<string, unknown>;
  security?: Array<Record<string, string[]>>;
};

/**
 * Route options that put a route in the document. Its body, query and params are validated by Fastify from these
 * schemas and reach the handler parsed and typed; its answers are serialised from theirs (both set up by
 * src/server/http/route-schemas.ts).
 */
export function documented<const S extends DocumentedSchema>(schema: S, config: FastifyContextConfig = {}) {
  return { schema, config };
}

/** Signed-in calls: the session cookie, and the CSRF header on unsafe methods. */
export const SESSION = [{ session: [], csrf: [] }];
