import type { FastifyRequest } from 'fastify';
import { TEAM_INVITATION_PATH } from '../../shared/teams';

/**
 * What the request log must never hold: bearer secrets in URLs (a download link works without login for 3 hours;
 * an update feed's token is a device's; a team invitation's gives a seat), credentials in headers (sessions, CSRF
 * tokens, operator keys), and the values a failed query was bound to (license keys, emails, password hashes). The
 * query's text stays: it names which query failed.
 */
const SECRET_QUERY_VALUE = /([?&](?:token|key|code)=)[^&#]*/gi;
const REDACTED = '[redacted]';

/**
 * A route parameter named as a token or a secret is a bearer secret (`/api/downloads/:token`,
 * `/api/team-invitations/:token/accept`, …): its segment of the URL is replaced, whichever route declares it.
 */
const SECRET_PARAM = /^:\w*(token|secret)\w*$/i;
/** Pages of the site whose link ends in a secret: the server serves them as the web app, with no route of their own. */
const SECRET_PAGES = [TEAM_INVITATION_PATH];

/** The URL as the log shows it: the secret segments of its route or page, and token-like query values, replaced. */
function redactUrl(url: string, route: string | undefined): string {
  const queryAt = url.search(/[?#]/);
  const [path, rest] = queryAt < 0 ? [url, ''] : [url.slice(0, queryAt), url.slice(queryAt)];
  let shown = path;
  if (route?.includes(':')) {
    const secretAt = route
      .split('/')
      .flatMap((segment, index) => (SECRET_PARAM.test(segment) ? [index] : []));
    if (secretAt.length > 0)
      shown = path
        .split('/')
        .map((segment, index) => (secretAt.includes(index) ? REDACTED : segment))
        .join('/');
  }
  const page = SECRET_PAGES.find((prefix) => shown.startsWith(prefix) && shown.length > prefix.length);
  if (page) shown = `${page}${REDACTED}`;
  return `${shown}${rest.replace(SECRET_QUERY_VALUE, `$1${REDACTED}`)}`;
}

const CREDENTIAL_HEADERS = ['.authorization', '.cookie', '["set-cookie"]', '["x-csrftoken"]'];
/** Wherever a log line carries headers (a request's, a reply's, a fetch's), their credentials are censored. */
const REDACT_PATHS = ['headers', 'req.headers', 'res.headers', 'request.headers', 'response.headers'].flatMap(
  (parent) => CREDENTIAL_HEADERS.map((header) => `${parent}${header}`),
);

type LoggedError = Error & { query?: unknown; params?: unknown; errors?: unknown };

/** Fields that hold the values a query was bound to, or a row's values: never logged (cause and errors follow). */
const VALUE_FIELDS = new Set(['params', 'detail', 'where', 'cause', 'errors']);
const DRIZZLE_FAILED_QUERY = 'Failed query: ';
const MAX_DEPTH = 5;

/** PostgreSQL's data exceptions (class 22) quote the input they refused: `invalid input syntax for type uuid: "…"`. */
const isDataException = (error: LoggedError) => /^22/.test(String((error as { code?: unknown }).code));
const QUOTED_INPUT = /: ".*"$/s;

const isErrorLike = (value: unknown): value is LoggedError =>
  typeof value === 'object' && value !== null && typeof (value as Error).message === 'string';

/**
 * A logged error without the values its query was bound to: Drizzle puts them in `params` and in its message
 * ("Failed query: …\nparams: …"), PostgreSQL repeats row values in `detail` (a duplicate key's value). The cause
 * chain and an AggregateError's errors are serialized the same way.
 */
function serializeError(error: unknown, depth = 0): unknown {
  if (!isErrorLike(error)) return error;
  const message =
    typeof error.query === 'string' && error.message.startsWith(DRIZZLE_FAILED_QUERY)
      ? `${DRIZZLE_FAILED_QUERY}${error.query}`
      : isDataException(error)
        ? error.message.replace(QUOTED_INPUT, `: ${REDACTED}`)
        : error.message;
  const out: Record<string, unknown> = {
    type: error.constructor?.name ?? error.name,
    message,
    stack: error.stack?.split(error.message).join(message),
  };
  for (const key in error) {
    if (key in out || VALUE_FIELDS.has(key)) continue;
    const value = (error as unknown as Record<string, unknown>)[key];
    if (!isErrorLike(value)) out[key] = value;
    else if (depth < MAX_DEPTH) out[key] = serializeError(value, depth + 1);
  }
  if (depth < MAX_DEPTH && isErrorLike(error.cause)) out.cause = serializeError(error.cause, depth + 1);
  if (depth < MAX_DEPTH && Array.isArray(error.errors))
    out.aggregateErrors = error.errors.map((inner) => serializeError(inner, depth + 1));
  return out;
}

/** Fastify's own request fields, with the URL redacted and no headers. */
function serializeRequest(request: FastifyRequest) {
  return {
    method: request.method,
    url: redactUrl(request.url, request.routeOptions?.url),
    host: request.host,
    remoteAddress: request.ip,
    remotePort: request.socket?.remotePort,
  };
}

/** The app's logger settings: the caller's (level, destination) with the serializers and redaction above. */
export function withLogRedaction(logger: boolean | object | undefined): boolean | object {
  if (!logger) return false;
  const base = logger === true ? {} : logger;
  return {
    ...base,
    serializers: { req: serializeRequest, err: serializeError },
    redact: { paths: REDACT_PATHS, censor: REDACTED },
  };
}
