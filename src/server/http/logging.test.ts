import { randomBytes } from 'node:crypto';
import { Writable } from 'node:stream';
import { sql } from 'drizzle-orm';
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { testConfig } from '../../../test/support/app';
import { createTestDatabase } from '../../../test/support/database';
import { TEAM_INVITATION_PATH } from '../../shared/teams';
import { buildApp, type RegisteredRoute } from '../app';
import { createAppContext } from '../compose';
import type { DatabaseHandle } from '../db';
import { users } from '../db/schema/accounts';

/**
 * The request log as production writes it (JSON lines at info): it must never hold a download or update-feed
 * token, a credential header, or the values a failed query was bound to, while still naming the query.
 */
const secret = (label: string) => `${label}${randomBytes(12).toString('hex')}`;
const DOWNLOAD_TOKEN = randomBytes(32).toString('base64url');
const FEED_TOKEN = secret('feed');
const SESSION = secret('session');
const BEARER = secret('bearer');
const CSRF = secret('csrf');
const EMAIL = `${secret('buyer')}@example.com`;
const BAD_ID = secret('not-a-uuid');

let logged = '';
let app: FastifyInstance;
let routes: ReadonlyArray<RegisteredRoute>;
let database: DatabaseHandle;

beforeAll(async () => {
  database = await createTestDatabase();
  const ctx = createAppContext({ config: testConfig(), db: database.db });
  const stream = new Writable({
    write(chunk, _encoding, done) {
      logged += chunk.toString();
      done();
    },
  });
  ({ app, routes } = await buildApp({ ctx, logger: { level: 'info', stream } }));
  // Code that logs headers (a future hook, a debugging line) gets them censored too.
  app.addHook('onResponse', async (request, reply) => {
    request.log.info({ headers: request.headers, response: { headers: reply.getHeaders() } }, 'headers seen');
  });
  // Two queries that fail with their values in the error: a duplicate key and a refused cast.
  const user = { name: 'Asha Verma', email: EMAIL, phone: '+919876543210', passwordHash: 'x' };
  app.get('/test/duplicate-user', async () => {
    await ctx.db.insert(users).values(user);
    await ctx.db.insert(users).values(user);
  });
  app.get('/test/bad-cast', async () => ctx.db.execute(sql`select ${BAD_ID}::uuid`));
  await app.ready();
});
afterAll(async () => {
  await app.close();
  await database.close();
});

describe('the request log', () => {
  it('redacts download and update-feed tokens in URLs and every credential header', async () => {
    const headers = { cookie: `sessionid=${SESSION}; csrftoken=${CSRF}`, authorization: `Bearer ${BEARER}` };
    await app.inject({ method: 'GET', url: `/api/downloads/${DOWNLOAD_TOKEN}`, headers });
    await app.inject({
      method: 'GET',
      url: `/api/updates/${FEED_TOKEN}/releases.win.json?localVersion=1.0.0`,
    });
    await app.inject({ method: 'GET', url: '/api/csrf-token/', headers });

    expect(logged).toContain('/api/downloads/[redacted]');
    expect(logged).toContain('/api/updates/[redacted]/releases.win.json');
    expect(logged).toContain('headers seen');
    for (const value of [DOWNLOAD_TOKEN, FEED_TOKEN, SESSION, BEARER, CSRF])
      expect(logged).not.toContain(value);
    // The fresh csrftoken the server set in Set-Cookie is censored as well.
    const lines = logged.split('\n').filter((line) => line.includes('headers seen'));
    expect(lines.some((line) => line.includes('"set-cookie":"[redacted]"'))).toBe(true);
  });

  it("names a failed query without the values it was bound to or the row's values", async () => {
    expect((await app.inject({ method: 'GET', url: '/test/duplicate-user' })).statusCode).toBe(500);
    expect((await app.inject({ method: 'GET', url: '/test/bad-cast' })).statusCode).toBe(500);
    expect(logged).toMatch(/Failed query: insert into \\?"users\\?"/);
    expect(logged).toContain('unhandled error');
    expect(logged).toContain('duplicate key value violates unique constraint');
    expect(logged).toContain('invalid input syntax for type uuid: [redacted]');
    expect(logged).not.toContain(EMAIL);
    expect(logged).not.toContain(BAD_ID);
    expect(logged).not.toContain('params');
  });
});

describe('routes whose URL carries a secret', () => {
  /** A path parameter named as a token or a secret is a bearer secret: whoever has the URL has the access. */
  const SECRET_PARAM = /^:\w*(token|secret)\w*$/i;
  const tokenRoutes = () =>
    routes.filter((route) => route.url.split('/').some((segment) => SECRET_PARAM.test(segment)));

  it('are listed from the app, and none of them is logged with its token in clear', async () => {
    const found = tokenRoutes().map((route) => `${route.method} ${route.url}`);
    // The routes known today; a new one is checked below all the same.
    expect(found).toEqual(
      expect.arrayContaining([
        'GET /api/downloads/:token',
        'GET /api/updates/:token/:file',
        'GET /api/team-invitations/:token',
        'POST /api/team-invitations/:token/accept',
      ]),
    );
    for (const route of tokenRoutes()) {
      const token = randomBytes(32).toString('base64url');
      const url = route.url
        .split('/')
        .map((segment) =>
          SECRET_PARAM.test(segment)
            ? token
            : segment.startsWith(':')
              ? '00000000-0000-4000-8000-000000000000'
              : segment,
        )
        .join('/');
      await app.inject({ method: route.method as 'GET' | 'POST', url });
      expect(logged, `${route.method} ${route.url}`).toContain(url.replace(token, '[redacted]'));
      expect(logged, `${route.method} ${route.url}`).not.toContain(token);
    }
  });

  it("keeps the invitation page's token out of the log too (the link in the email is a page of the site)", async () => {
    const token = randomBytes(32).toString('base64url');
    await app.inject({ method: 'GET', url: `${TEAM_INVITATION_PATH}${token}` });
    expect(logged).toContain(`${TEAM_INVITATION_PATH}[redacted]`);
    expect(logged).not.toContain(token);
  });
});
