import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ThrowawayPostgres } from '../../../test/support/postgres-server';
import { HttpClient, ServerProcess } from '../../../test/support/processes';
import { hashPassword } from '../auth/passwords';

/**
 * The database restarting under a running server (PostgreSQL only: PGlite lives inside the process). The server
 * must not exit, must answer API calls with 503 JSON and Retry-After while the database is gone, and must serve a
 * signed-in session and a fresh login again within seconds of it returning, without being restarted.
 */
const EMAIL = 'outage@example.com';
const PASSWORD = 'Correct horse 42';

let database: ThrowawayPostgres;
let server: ServerProcess;

beforeAll(async () => {
  database = await new ThrowawayPostgres().init();
  server = await new ServerProcess({ DATABASE_URL: database.url }).start();
  const client = new pg.Client({ connectionString: database.url });
  await client.connect();
  await client.query('insert into users (name, email, phone, password_hash) values ($1, $2, $3, $4)', [
    'Outage Tester',
    EMAIL,
    '+919876543210',
    await hashPassword(PASSWORD),
  ]);
  await client.end();
}, 120_000);

afterAll(async () => {
  await server?.stop();
  await database?.destroy();
});

async function signIn(client: HttpClient): Promise<Response> {
  await client.get('/api/csrf-token/');
  return client.post('/api/auth/login/', { email: EMAIL, password: PASSWORD });
}

/** Retries like a client honouring 503s would, faster than Retry-After so the test measures the recovery. */
async function retryUntil(ok: () => Promise<boolean>, withinMs: number): Promise<number> {
  const started = Date.now();
  while (Date.now() - started < withinMs) {
    if (await ok().catch(() => false)) return Date.now() - started;
    await new Promise((resolve) => setTimeout(resolve, 250));
  }
  throw new Error(`not recovered within ${withinMs} ms`);
}

describe('PostgreSQL stopped and started under a running server', () => {
  it('answers 503 with Retry-After while it is down, stays up, and recovers by itself', async () => {
    const session = new HttpClient(server.url);
    expect((await signIn(session)).status).toBe(200);
    expect(await (await session.get('/api/auth/check/')).json()).toMatchObject({ loggedin: true });
    expect((await fetch(`${server.url}/api/ready`)).status).toBe(200);

    await database.stop();

    const stranger = new HttpClient(server.url);
    await stranger.get('/api/csrf-token/');
    const login = await stranger.post('/api/auth/login/', { email: EMAIL, password: PASSWORD });
    expect(login.status).toBe(503);
    expect(login.headers.get('content-type')).toMatch(/^application\/json/);
    expect(Number(login.headers.get('retry-after'))).toBeGreaterThan(0);
    expect(await login.json()).toMatchObject({ code: 'database_unavailable' });

    // Once the outage is known, every API call fails fast with the same answer, the session check included.
    const check = await session.get('/api/auth/check/');
    expect(check.status).toBe(503);
    expect(Number(check.headers.get('retry-after'))).toBeGreaterThan(0);
    const ready = await fetch(`${server.url}/api/ready`);
    expect(ready.status).toBe(503);
    expect(ready.headers.get('retry-after')).not.toBeNull();
    expect((await fetch(`${server.url}/api/health`)).status).toBe(200);

    // Background jobs tick while the database is gone (the outbox every 2 s); none of it may end the process.
    await new Promise((resolve) => setTimeout(resolve, 4000));
    expect(server.alive).toBe(true);
    expect(server.output).not.toMatch(/Unhandled 'error' event|uncaught/i);

    await database.start();

    await retryUntil(async () => {
      const answer = await session.get('/api/auth/check/');
      return answer.status === 200 && ((await answer.json()) as { loggedin: boolean }).loggedin;
    }, 10_000);
    const fresh = new HttpClient(server.url);
    await retryUntil(async () => (await signIn(fresh)).status === 200, 10_000);
    expect(await (await fresh.get('/api/auth/check/')).json()).toMatchObject({ loggedin: true });
    expect((await fetch(`${server.url}/api/ready`)).status).toBe(200);
    expect(server.alive).toBe(true);
  }, 90_000);
});
