import type { Clock } from './clock';
import type { Config } from './config';
import type { DataSecrets } from './data-secrets';

/**
 * What this instance remembers of rows that live in the database. Each feature adds its own part beside the code
 * that keeps it (`declare module '../kernel/context'`): sessions (auth/session-cache.ts), the catalogue and owned
 * tools (catalogue/catalogue-cache.ts), licenses (licenses/memory.ts). Each context has its own, so two app instances
 * in one process (tests) never see each other's entries.
 */
// biome-ignore lint/suspicious/noEmptyInterface: the features fill it in, as Fastify's decorators fill FastifyInstance
export interface AppCaches {}

/**
 * Everything a service works with. The foundation's part is here: configuration, the clock, the data key and the
 * caches. Every other slot is declared by the module that owns its type, the way a Fastify plugin declares its
 * decorator (`declare module '../kernel/context' { interface AppContext { … } }`): the database and its health (db),
 * rate limiters (http), license look-ups, signing keys and change feed (licenses), the release signing key
 * (releases), the payment gateway (payments), file storage (storage), the mail hint (mail), the tax documents' fonts
 * (invoices), the dashboard's signed-in operators (dashboard), metrics (metrics). So this module imports
 * no feature, and a feature's new slot touches no shared file but compose.ts, which builds the whole context.
 * The HTTP app, the admin command line and the tests all build it with `createAppContext` (compose.ts).
 */
export interface AppContext {
  config: Config;
  clock: Clock;
  /** Hashes and seals secrets kept in the database (license keys, credential passwords): decision 032. */
  dataSecrets: DataSecrets;
  caches: AppCaches;
}
