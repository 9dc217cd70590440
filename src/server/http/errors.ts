import type { FastifyError, FastifyInstance, FastifyReply } from 'fastify';
import type { ZodType, z } from 'zod';
import { DOMAIN_ERROR_STATUS, DomainError } from '../kernel/domain-error';

/** Field name → first message for that field, as the browser's forms show it. */
export type FieldErrors = Record<string, string>;

export type ErrorBody = { code: string; message: string; fieldErrors?: FieldErrors };

/** An error whose message is safe to show the user. Anything else becomes a generic 500. */
export class AppError extends Error {
  constructor(
    readonly statusCode: number,
    readonly code: string,
    message: string,
    readonly fieldErrors?: FieldErrors,
    readonly headers?: Record<string, string>,
  ) {
    super(message);
    this.name = 'AppError';
  }
}

export const badRequest = (message: string, fieldErrors?: FieldErrors) =>
  new AppError(400, 'validation_error', message, fieldErrors);
export const unauthorized = (message = 'Please log in to continue.') =>
  new AppError(401, 'unauthorized', message);
export const notFound = (message = 'Not found') => new AppError(404, 'not_found', message);
export const conflict = (message: string) => new AppError(409, 'conflict', message);
export const tooManyRequests = (
  retryAfterSeconds: number,
  message = 'Too many requests. Please try again later.',
) =>
  new AppError(429, 'rate_limited', message, undefined, {
    'retry-after': String(Math.max(1, retryAfterSeconds)),
  });

/** Parses input with a shared schema; a failure is a 400 carrying the schema's own messages per field. */
export function parseInput<S extends ZodType>(schema: S, input: unknown): z.output<S> {
  const result = schema.safeParse(input ?? {});
  if (result.success) return result.data;
  const fieldErrors: FieldErrors = {};
  for (const issue of result.error.issues) {
    const field = issue.path.length > 0 ? issue.path.join('.') : '_';
    fieldErrors[field] ??= issue.message;
  }
  const first = Object.values(fieldErrors)[0] ?? 'Invalid request';
  throw badRequest(first, fieldErrors);
}

/**
 * One error handler: 4xx keep a stable code and their message, 5xx become a generic message and are logged.
 * `translate` may turn an unexpected error into one the user is told about (the database being unreachable).
 */
export function registerErrorHandler(
  app: FastifyInstance,
  translate?: (error: unknown) => AppError | undefined,
): void {
  app.setErrorHandler((raised: FastifyError | AppError | DomainError, request, reply) => {
    // A 4xx (a client that reset its own request is one) is the client's doing: never the database's.
    const error =
      raised instanceof AppError || raised instanceof DomainError || isClientError(raised)
        ? raised
        : (translate?.(raised) ?? raised);
    if (error instanceof AppError) {
      if (error.headers) reply.headers(error.headers);
      const body: ErrorBody = { code: error.code, message: error.message };
      if (error.fieldErrors) body.fieldErrors = error.fieldErrors;
      return reply.status(error.statusCode).send({ ...body, error: error.message, status: 'error' });
    }
    if (error instanceof DomainError && DOMAIN_ERROR_STATUS[error.code] < 500) {
      const { code, message } = error;
      return reply.status(DOMAIN_ERROR_STATUS[code]).send({ code, message, error: message, status: 'error' });
    }
    const status = 'statusCode' in error && typeof error.statusCode === 'number' ? error.statusCode : 500;
    if (status >= 400 && status < 500) {
      const code =
        status === 413 ? 'payload_too_large' : status === 415 ? 'unsupported_media_type' : 'bad_request';
      const message =
        status === 413
          ? 'Request body is too large.'
          : status === 415
            ? 'Unsupported content type.'
            : 'The request could not be understood.';
      if (status === 429 && error.message)
        reply.header('retry-after', reply.getHeader('retry-after') ?? '60');
      return reply.status(status).send({ code, message, error: message, status: 'error' });
    }
    request.log.error({ err: error }, 'unhandled error');
    const message = 'Something went wrong. Please try again later.';
    return reply.status(500).send({ code: 'internal_error', message, error: message, status: 'error' });
  });
}

function isClientError(error: { statusCode?: unknown }): boolean {
  return typeof error.statusCode === 'number' && error.statusCode >= 400 && error.statusCode < 500;
}

export function sendJsonNotFound(reply: FastifyReply) {
  const message = 'Not found';
  return reply.status(404).send({ code: 'not_found', message, error: message, status: 'error' });
}
