/**
 * Which errors the database driver raised. The health observer must count only those: an error that merely looks
 * like an outage (a client resetting its own request, `ECONNRESET`) must never mark the database down. Every call
 * the query builder makes on the driver goes through `tagDriverErrors`, which marks what that call rejects with.
 */
const raisedByDriver = new WeakSet<object>();

function mark(error: unknown): never {
  if (error && typeof error === 'object') raisedByDriver.add(error);
  throw error;
}

/** True when the error, or one it wraps (a DrizzleQueryError's cause), was raised by a database driver call. */
export function isDriverError(error: unknown): boolean {
  for (let current = error, depth = 0; current && typeof current === 'object' && depth < 5; depth++) {
    if (raisedByDriver.has(current)) return true;
    current = (current as { cause?: unknown }).cause;
  }
  return false;
}

type Method = (...args: unknown[]) => unknown;

/** The driver's asynchronous calls whose failures are the database's: queries, connecting, a transaction's queries. */
const TAGGED = new Set(['query', 'exec', 'connect', 'transaction']);

/**
 * The driver object (a pg Pool, a pooled client, a PGlite instance or its transaction) as the query builder sees
 * it, with every rejection of a query or a connect marked as the driver's. A transaction's callback runs the
 * caller's code, so only the queries on the transaction handle are marked, never what the callback throws.
 */
export function tagDriverErrors<T extends object>(driver: T): T {
  return new Proxy(driver, {
    get(target, property) {
      // Read on the object itself: PGlite's getters touch private fields, which a proxy receiver cannot.
      const value = Reflect.get(target, property);
      if (typeof value !== 'function' || typeof property !== 'string' || !TAGGED.has(property)) {
        // PGlite keeps private fields: its methods must run on the object itself, not on this proxy.
        return typeof value === 'function' && property !== 'constructor' ? value.bind(target) : value;
      }
      const method = value as Method;
      if (property === 'transaction')
        return (callback: (tx: object) => unknown, ...rest: unknown[]) =>
          method.call(target, (tx: object) => callback(tagDriverErrors(tx)), ...rest);
      return (...args: unknown[]) => {
        const result = method.apply(target, args);
        if (!(result instanceof Promise)) return result;
        // A pooled client from connect() carries the transaction's queries.
        return result.then(
          (resolved) =>
            property === 'connect' && resolved && typeof resolved === 'object'
              ? tagDriverErrors(resolved)
              : resolved,
          mark,
        );
      };
    },
  });
}

/** PostgreSQL's unique_violation, wherever the driver or Drizzle nested it. */
export function isUniqueViolation(error: unknown): boolean {
  for (let current = error; current && typeof current === 'object'; current = (current as Error).cause) {
    if ((current as { code?: unknown }).code === '23505') return true;
  }
  return false;
}
