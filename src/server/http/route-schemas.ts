import type {
  FastifyBaseLogger,
  FastifyInstance,
  FastifyRequest,
  FastifySerializerCompiler,
  preHandlerHookHandler,
  RawReplyDefaultExpression,
  RawRequestDefaultExpression,
  RawServerDefault,
} from 'fastify';
import { type ZodTypeProvider, serializerCompiler as zodSerializerCompiler } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { $ZodType, safeParse } from 'zod/v4/core';
import { isZodAnswer } from './answers';
import { inputRefusal } from './errors';

declare module 'fastify' {
  interface FastifyContextConfig {
    /**
     * The handler checks who is asking (and counts their limits) before it looks at its input, so a stranger is
     * told 401 and a flood 429 whatever they sent: it calls `refuseInvalidInput(request)` itself, at that point.
     */
    checksCallerFirst?: boolean;
  }
}

/** A Fastify instance whose routes read their input typed from their zod schemas (`base.withTypeProvider`). */
export type ZodFastify = FastifyInstance<
  RawServerDefault,
  RawRequestDefaultExpression,
  RawReplyDefaultExpression,
  FastifyBaseLogger,
  ZodTypeProvider
>;

/**
 * Validation is Fastify's (docs/decisions/053-house-layout.md, "Schemas on routes"): each route's `params`,
 * `querystring` and `body` are shared zod schemas, compiled into the route's validators, and the handler reads
 * `request.params`, `request.query` and `request.body` already parsed (typed through fastify-type-provider-zod's
 * `ZodTypeProvider`). What is kept from before is when and how a refusal is told:
 *
 * - the same answer as `parseInput`: 400, `validation_error`, the first message, one message per field;
 * - after the hooks that ran before the handler did (the input policy names a hostile field first, the CSRF
 *   check, a second sign-in where a route asks for one): the validation phase attaches its refusal to the request
 *   (`attachValidation`) and a last `preHandler` of the route answers it, or, on a route that checks its caller
 *   first (`config.checksCallerFirst`), the handler does, after that check.
 *
 * Answers are declared too (`schema.response`, src/server/http/answers.ts): a route whose answers are zod schemas is
 * given the type provider's serialiser (each answer encoded by its status's schema, then written as JSON); a route
 * whose answers are JSON Schemas keeps Fastify's own compiled serialiser (the license API's, decisions 027 and 030).
 *
 * Registered on the root before any route. An input schema that is not zod, or a route that mixes zod and JSON
 * Schema answers, is a mistake found at start.
 */
export function registerRouteSchemas(app: FastifyInstance): void {
  app.setValidatorCompiler(({ schema, method, url, httpPart }) => {
    if (!(schema instanceof $ZodType))
      throw new Error(`${method} ${url}: the ${httpPart ?? 'input'} schema is not a zod schema`);
    return (data: unknown) => {
      const result = safeParse(schema, data ?? {});
      return result.success ? { value: result.data } : { error: inputRefusal(result.error.issues) };
    };
  });
  app.addHook('onRoute', (route) => {
    const { schema } = route;
    const answers = Object.values(schema?.response ?? {});
    const zodAnswers = answers.filter(isZodAnswer).length;
    if (zodAnswers > 0 && zodAnswers < answers.length)
      throw new Error(`${route.method} ${route.url}: its answers are all zod or all JSON Schema`);
    if (zodAnswers > 0)
      route.serializerCompiler ??= zodSerializerCompiler as FastifySerializerCompiler<unknown>;
    if (!schema?.body && !schema?.params && !schema?.querystring) return;
    route.attachValidation = true;
    if (route.config?.checksCallerFirst) return;
    route.preHandler = [...[route.preHandler ?? []].flat(), refuseInvalidInputHook];
  });
}

const refuseInvalidInputHook: preHandlerHookHandler = (request, _reply, done) =>
  done(request.validationError);

/** Route config of a handler that checks its caller first and then calls `refuseInvalidInput` itself. */
export const CALLER_FIRST = { checksCallerFirst: true } as const;

/** For a handler that checks its caller first (`config.checksCallerFirst`): its input's refusal, if any, now. */
export function refuseInvalidInput(request: FastifyRequest): void {
  if (request.validationError) throw request.validationError;
}

/**
 * Path parameters as their route reads them: strings, named. For routes whose handler answers a malformed id as
 * it answers an unknown one (404 with its own message), so the schema names the parameters and the handler keeps
 * that answer.
 */
export const pathStrings = <const K extends string>(...names: K[]) =>
  z.object(Object.fromEntries(names.map((name) => [name, z.string()])) as Record<K, z.ZodString>);
