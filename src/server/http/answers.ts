import { z } from 'zod';
import { $ZodType } from 'zod/v4/core';
import { errorAnswerSchema } from '../../shared/api-schemas';

/**
 * What routes declare they answer (docs/decisions/065-every-route-declares-its-answers.md): `schema.response` holds
 * one declaration per status, which Fastify serialises that status's answer with and the OpenAPI document shows.
 * A declaration is one of three kinds, which `answerKind` tells apart for the tests:
 *
 * - JSON: a zod schema (serialised by zod: what it does not name is not sent, and keys come in its order), or, on
 *   the hot paths (the license API, decisions 027 and 030; the auth check), a JSON Schema (Fastify's compiled
 *   serialiser, `compiledAnswer`);
 * - no body (`noBody`): a 204, a 304, a redirect, a 416;
 * - another format (`answerIn`): a PDF, a feed, a file, a page, each by its media type. Such an answer is bytes the
 *   handler made (a Buffer, a stream, a string), which Fastify sends as they are: its schema documents it.
 */

/** Why each refusal status is answered, for the document; a route may say more with `refused(…)`. */
const REFUSAL_MEANINGS = {
  400: 'The input was refused: `message` says why, `fieldErrors` names each field that was',
  401: 'Not signed in',
  403: 'Refused: the CSRF token is missing or wrong on an unsafe call, or this caller may not do this (`code` says which)',
  404: 'Not found, or not this caller’s',
  409: 'Refused in the state things are in: `message` says why',
  413: 'The body is too large',
  415: 'The body is not of a type this call reads',
  429: 'Too many requests: `Retry-After` says when to try again',
} as const;

type RefusalStatus = keyof typeof REFUSAL_MEANINGS;

/** A refusal in the one error shape (src/server/http/errors.ts), saying what it means here. */
export const refused = (meaning: string) => errorAnswerSchema.describe(meaning);

const SERVER_ERRORS = refused(
  '503 while the database cannot be reached (`Retry-After`), 502 when the payment gateway fails, 500 for an unexpected failure',
);

type ServerErrors = { '5xx': typeof errorAnswerSchema };

/**
 * The refusals a route answers, in the one error shape, one per status given, and the server's own errors (5xx) that
 * any call may meet.
 */
export function refusals(): ServerErrors;
export function refusals<const S extends RefusalStatus>(
  ...statuses: [S, ...S[]]
): Record<S, typeof errorAnswerSchema> & ServerErrors;
export function refusals(...statuses: RefusalStatus[]) {
  const declared = Object.fromEntries(statuses.map((status) => [status, refused(REFUSAL_MEANINGS[status])]));
  return { ...declared, '5xx': SERVER_ERRORS };
}

/** An answer without a body: what it means (and, for a redirect, where `Location` points). */
export const noBody = (meaning: string) => z.null().describe(meaning);

/** The bytes of a file, as OpenAPI describes a binary body. */
export const fileBytes = z.string().meta({ format: 'binary' });

/** An answer in a format other than JSON, or JSON the handler wrote itself: each media type with what it holds. */
export function answerIn(meaning: string, content: Record<string, z.ZodType>) {
  return {
    description: meaning,
    content: Object.fromEntries(Object.entries(content).map(([type, schema]) => [type, { schema }])),
  };
}

export type AnswerKind =
  | { kind: 'json'; schema: unknown }
  | { kind: 'no body' }
  | { kind: 'format'; mediaTypes: Record<string, unknown> };

const isObject = (value: unknown): value is Record<string, unknown> =>
  typeof value === 'object' && value !== null;

const isNull = (schema: unknown) =>
  schema instanceof $ZodType ? schema._zod.def.type === 'null' : isObject(schema) && schema.type === 'null';

/** What a declaration says the answer is. */
export function answerKind(declaration: unknown): AnswerKind {
  if (isNull(declaration)) return { kind: 'no body' };
  if (isObject(declaration) && isObject(declaration.content)) {
    const mediaTypes = Object.fromEntries(
      Object.entries(declaration.content).map(([type, each]) => [
        type,
        isObject(each) ? each.schema : undefined,
      ]),
    );
    return { kind: 'format', mediaTypes };
  }
  return { kind: 'json', schema: declaration };
}

/** Whether a declaration is zod's (a zod schema, or another format described with zod schemas). */
export function isZodAnswer(declaration: unknown): boolean {
  const kind = answerKind(declaration);
  if (kind.kind === 'format')
    return Object.values(kind.mediaTypes).every((schema) => schema instanceof $ZodType);
  return declaration instanceof $ZodType;
}

/**
 * A zod answer as plain JSON Schema, for a hot route that keeps Fastify's compiled serialiser (fast-json-stringify,
 * several times quicker than encoding with zod and faster than `JSON.stringify`): every part inlined (no `$ref`,
 * which neither the serialiser nor the document could resolve there), with the meaning given.
 */
export function compiledAnswer(schema: z.ZodType, meaning?: string): Record<string, unknown> {
  const { $schema: _dialect, ...json } = z.toJSONSchema(schema, { metadata: z.registry() });
  return meaning ? { description: meaning, ...json } : json;
}
