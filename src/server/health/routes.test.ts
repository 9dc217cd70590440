import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { setTimeout as sleep } from 'node:timers/promises';
import { sql } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { createTestApp } from '../../../test/support/app';
import { testAppForFile } from '../../../test/support/file-apps';
import { isDriverError } from '../db/driver-errors';
import { isDatabaseUnavailable } from '../db/health';

const t = testAppForFile();

describe('health and readiness', () => {
  it('GET /api/health says the process is serving, GET /api/ready that the database answers', async () => {
    const health = await t.app.inject({ method: 'GET', url: '/api/health' });
    expect(health.statusCode).toBe(200);
    expect(health.json()).toEqual({ status: 'ok' });
    expect(health.headers['cache-control']).toBe('no-store');
    const ready = await t.app.inject({ method: 'GET', url: '/api/ready' });
    expect(ready.statusCode).toBe(200);
    expect(ready.json()).toEqual({ status: 'ready', database: 'reachable' });
  });

  it('tells an unreachable database from a failed query', () => {
    const refused = Object.assign(new Error('connect ECONNREFUSED 127.0.0.1:5432'), { code: 'ECONNREFUSED' });
    const shutdown = Object.assign(new Error('terminating connection due to administrator command'), {
      code: '57P01',
    });
    const wrapped = new Error('Failed query: select 1', { cause: shutdown });
    expect(isDatabaseUnavailable(refused)).toBe(true);
    expect(isDatabaseUnavailable(wrapped)).toBe(true);
    expect(isDatabaseUnavailable(new AggregateError([refused]))).toBe(true);
    const uniqueViolation = Object.assign(new Error('duplicate key'), { code: '23505' });
    expect(isDatabaseUnavailable(new Error('Failed query', { cause: uniqueViolation }))).toBe(false);
    expect(isDatabaseUnavailable(new Error('boom'))).toBe(false);
  });

  it('counts only errors the database driver raised: a client resetting its request is not an outage', async () => {
    const clientReset = Object.assign(new Error('aborted'), { code: 'ECONNRESET', statusCode: 400 });
    expect(t.ctx.dbHealth.observe(clientReset)).toBe(false);
    expect(t.ctx.dbHealth.available).toBe(true);
    // A real query error from the driver is recognised as the driver's (a syntax error, so not an outage).
    const failed = await t.ctx.db.execute(sql`select from nowhere_at_all`).catch((error: unknown) => error);
    expect(isDriverError(failed)).toBe(true);
    expect(t.ctx.dbHealth.observe(failed)).toBe(false);
    expect((await t.app.inject({ method: 'GET', url: '/api/ready' })).statusCode).toBe(200);
  });

  it('answer 503 "draining" from /api/ready at once once shutdown starts, while every other route keeps answering', async () => {
    const leaving = await createTestApp();
    try {
      leaving.app.startDraining();
      const ready = await leaving.app.inject({ method: 'GET', url: '/api/ready' });
      expect(ready.statusCode).toBe(503);
      expect(ready.json()).toEqual({ status: 'draining' });
      expect(ready.headers['cache-control']).toBe('no-store');
      expect((await leaving.app.inject({ method: 'GET', url: '/api/health' })).statusCode).toBe(200);
      expect((await leaving.app.inject({ method: 'GET', url: '/api/alltools/' })).statusCode).toBe(200);
      // The instance that is not shutting down is still ready.
      expect((await t.app.inject({ method: 'GET', url: '/api/ready' })).statusCode).toBe(200);
    } finally {
      await leaving.close();
    }
  });

  it('closes once the requests in flight are answered: their answers end the connection the client kept alive', async () => {
    const leaving = await createTestApp({
      prepare: (app) =>
        app.get('/test/slow', async () => {
          await sleep(300);
          return { answered: true };
        }),
    });
    await leaving.app.listen({ port: 0, host: '127.0.0.1' });
    const { port } = leaving.app.server.address() as AddressInfo;
    // A client that keeps its connections, as HAProxy keeps its connections to each instance.
    const agent = new http.Agent({ keepAlive: true });
    try {
      const answer = new Promise<http.IncomingMessage>((resolve, reject) =>
        http.get({ host: '127.0.0.1', port, path: '/test/slow', agent }, resolve).on('error', reject),
      );
      await sleep(100);
      leaving.app.startDraining();
      const closed = leaving.app.close().then(() => 'closed');
      const response = await answer;
      response.resume();
      expect(response.statusCode).toBe(200);
      expect(response.headers.connection).toBe('close');
      expect(await Promise.race([closed, sleep(3000).then(() => 'still open after 3 s')])).toBe('closed');
    } finally {
      agent.destroy();
      await leaving.database.close();
    }
  });
});
