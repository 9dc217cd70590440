import type { FastifyError, FastifyInstance, FastifyReply } from 'fastify';
import type { ZodType, z } from 'zod';
import { DomainError, type DomainErrorCode, type FieldErrors } from '../kernel/domain-error';

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

/**
 * The one map from a domain error's code to HTTP: its status, and the code the answer carries where that differs
 * from the domain's (the answers kept the codes they had before services stopped speaking HTTP). A 5xx's message is
 * not shown (a generic one is, and the error is logged) unless `shown`.
 */
const DOMAIN_ERROR_HTTP: Record<DomainErrorCode, { status: number; code?: string; shown?: true }> = {
  not_found: { status: 404 },
  invalid: { status: 400 },
  validation_error: { status: 400 },
  refused: { status: 409 },
  conflict: { status: 409 },
  gateway_failed: { status: 502 },
  payment_gateway_error: { status: 502, shown: true },
  not_recorded: { status: 500 },
  unauthorized: { status: 401 },
  rate_limited: { status: 429 },
  busy: { status: 503, shown: true },
  invalid_code: { status: 400 },
  wrong_password: { status: 400 },
  reauth_required: { status: 403 },
  passkey_refused: { status: 400 },
  coupon_refused: { status: 400 },
  invalid_signature: { status: 400 },
  duplicate_payment: { status: 409 },
  payment_not_settled: { status: 409 },
  webhook_not_configured: { status: 503, shown: true },
  invalid_event: { status: 400 },
  not_operator: { status: 403 },
  second_factor_required: { status: 403 },
  wrong_code: { status: 400 },
  not_enrolled: { status: 403 },
  enrolment_not_started: { status: 400, code: 'not_enrolled' },
};

/**
 * The error a client is told about: an `AppError` as it is, a `DomainError` as its HTTP answer; undefined for
 * anything else and for a domain error whose message is not shown (a generic 500 answers it).
 */
export function httpErrorOf(error: unknown): AppError | undefined {
  if (error instanceof AppError) return error;
  if (!(error instanceof DomainError)) return undefined;
  const { status, code: mappedCode, shown } = DOMAIN_ERROR_HTTP[error.code];
  const code = error.answerCode ?? mappedCode ?? error.code;
  if (status >= 500 && !shown) return undefined;
  const headers =
    error.retryAfterSeconds === undefined
      ? undefined
      : { 'retry-after': String(Math.max(1, error.retryAfterSeconds)) };
  return new AppError(status, code, error.message, error.fieldErrors, headers);
}

export const badRequest = (message: string, fieldErrors?: FieldErrors) =>
  new AppError(400, 'validation_error', message, fieldErrors);
export const unauthorized = (message = 'Please log in to continue.') =>
  new AppError(401, 'unauthorized', message);
export const notFound = (message = 'Not found') => new AppError(404, 'not_found', message);
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
  throw inputRefusal(result.error.issues);
}

/**
 * A schema's refusal as the API answers it: a 400 whose `fieldErrors` hold each field's first message (the path
 * joined with dots, `_` for the whole input) and whose message is the first of them. Route schemas (Fastify's
 * validation, src/server/http/route-schemas.ts) and `parseInput` refuse alike.
 */
export function inputRefusal(
  issues: ReadonlyArray<{ path: ReadonlyArray<PropertyKey>; message: string }>,
): AppError {
  const fieldErrors: FieldErrors = {};
  for (const issue of issues) {
    const field = issue.path.length > 0 ? issue.path.map(String).join('.') : '_';
    fieldErrors[field] ??= issue.message;
  }
  const first = Object.values(fieldErrors)[0] ?? 'Invalid request';
  return badRequest(first, fieldErrors);
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
    const told = httpErrorOf(error);
    if (told) {
      if (told.headers) reply.headers(told.headers);
      const body: ErrorBody = { code: told.code, message: told.message };
      if (told.fieldErrors) body.fieldErrors = told.fieldErrors;
      return reply.status(told.statusCode).send({ ...body, error: told.message, status: 'error' });
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
