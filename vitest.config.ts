import { readdirSync, readFileSync } from 'node:fs';
import { availableParallelism } from 'node:os';
import path from 'node:path';
import { defineConfig } from 'vitest/config';

/**
 * Unit and API tests. Server tests run once on embedded PGlite and, when TEST_DATABASE_URL names a throwaway
 * PostgreSQL server, once more on PostgreSQL; `*.postgres.test.ts` (several processes on one PostgreSQL, the
 * database restarting under the server) run on PostgreSQL only, `*.pglite.test.ts` on PGlite only. Web components
 * (`*.test.tsx`) run in happy-dom. Browser journeys live in e2e/ and run under Playwright.
 */
const postgres = process.env.TEST_DATABASE_URL;

/**
 * Server test files that open no database (no test support, no db module, no app): they would test the same thing
 * twice, so the PostgreSQL pass leaves them out. Read from their imports, so a file that starts opening one joins
 * the second pass by itself.
 */
const OPENS_A_DATABASE = /test\/support|\/db'|\/db\/|openDatabase|TEST_DB|createApp|buildApp/;
const databaseFreeTests = readdirSync('src/server', { recursive: true, encoding: 'utf8' })
  .filter((file) => file.endsWith('.test.ts'))
  .map((file) => path.join('src/server', file))
  .filter((file) => !OPENS_A_DATABASE.test(readFileSync(file, 'utf8')));

/**
 * Four workers, each running its files one after another in one module graph (`isolate: false`). Many of these
 * tests wait on a child process, a socket or the database, so more workers than cores overlap those waits (the CPU
 * was idle 1 % of a four-worker run). Loading the server's modules
 * afresh for every file cost 373 s of a 1,118 s run; the files share no module state (none mocks a module or
 * stubs the environment), so they load once per worker. On this 2-core machine, both databases: two workers,
 * isolated, 1,118 s; four isolated 946 s; four not isolated 701 s, every test passing.
 */
const maxWorkers = Math.max(4, availableParallelism());
/** Set per project: a project does not inherit the root's `isolate`. */
const isolate = false;

export default defineConfig({
  test: {
    maxWorkers,
    projects: [
      {
        test: {
          name: 'pglite',
          include: ['src/**/*.test.ts', 'packages/*/src/**/*.test.ts'],
          // Tests of several processes sharing one PostgreSQL server have no PGlite counterpart.
          exclude: ['**/node_modules/**', 'src/**/*.postgres.test.ts'],
          environment: 'node',
          isolate,
          env: { TEST_DB: 'pglite' },
          testTimeout: 30_000,
          hookTimeout: 60_000,
        },
      },
      {
        test: {
          // Components as a person uses them: rendered into happy-dom, driven through Testing Library.
          name: 'web',
          include: ['src/web/**/*.test.tsx'],
          environment: 'happy-dom',
          isolate,
          testTimeout: 15_000,
        },
      },
      ...(postgres
        ? [
            {
              test: {
                name: 'postgres',
                include: ['src/server/**/*.test.ts'],
                // The embedded database's own features (its backups) have no PostgreSQL counterpart.
                exclude: ['**/node_modules/**', 'src/**/*.pglite.test.ts', ...databaseFreeTests],
                environment: 'node',
                isolate,
                env: { TEST_DB: 'postgres', TEST_DATABASE_URL: postgres },
                testTimeout: 30_000,
                hookTimeout: 60_000,
              },
            },
          ]
        : []),
    ],
  },
});
