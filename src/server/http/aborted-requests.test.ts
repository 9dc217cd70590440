import { connect } from 'node:net';
import { describe, expect, it } from 'vitest';
import { shopTestAppForFile } from '../../../test/support/file-apps';
import { HttpClient } from '../../../test/support/processes';

/**
 * A client that sends part of a body and then resets or closes its connection raises ECONNRESET ("aborted") in the
 * body parser. That is the client's own I/O, not the database's: it must not mark the database down, so every
 * other request keeps its usual answer. Real sockets, on PGlite and on PostgreSQL (TEST_DB).
 */
const ABORTED_ROUTES = ['/api/razorpay/webhook/', '/api/auth/login/', '/api/contact'];
const ABORTS = 100;

const t = shopTestAppForFile();

/** Announces 100 bytes of body, sends one, then resets (odd turns) or just closes (even turns) the connection. */
function abortMidBody(url: string, cookie: string, csrf: string, reset: boolean): Promise<void> {
  const { port } = new URL(t.baseUrl);
  return new Promise((resolve, reject) => {
    const socket = connect(Number(port), '127.0.0.1', () => {
      socket.write(
        `POST ${url} HTTP/1.1\r\nHost: 127.0.0.1:${port}\r\nContent-Type: application/json\r\n` +
          `Content-Length: 100\r\nCookie: ${cookie}\r\nX-CSRFToken: ${csrf}\r\n\r\n{`,
        () => {
          // Long enough for the server to have started reading the body, short of any timeout.
          setTimeout(() => {
            if (reset) socket.resetAndDestroy();
            else socket.destroy();
          }, 5);
        },
      );
    });
    socket.on('error', reject);
    socket.on('close', () => resolve());
  });
}

describe('requests that abort mid-body', () => {
  it(`leave every other request answered as usual (${ABORTS} aborts, interleaved)`, async () => {
    const visitor = new HttpClient(t.baseUrl);
    await visitor.get('/api/csrf-token/');
    const csrf = visitor.cookies.get('csrftoken') ?? '';
    const cookie = `csrftoken=${csrf}`;

    const catalogue = async () => {
      const response = await visitor.get('/api/alltools/');
      return { status: response.status, body: await response.text() };
    };
    const login = async () => {
      const response = await visitor.post('/api/auth/login/', {
        email: 'nobody@example.com',
        password: 'Not the password 1',
      });
      return { status: response.status, code: ((await response.json()) as { code?: string }).code };
    };
    const usualCatalogue = await catalogue();
    const usualLogin = await login();
    expect(usualCatalogue.status).toBe(200);
    expect(usualLogin.status).toBeLessThan(500);

    const answers: string[] = [];
    for (let turn = 0; turn < ABORTS; turn++) {
      const url = ABORTED_ROUTES[turn % ABORTED_ROUTES.length] as string;
      await abortMidBody(url, cookie, csrf, turn % 2 === 1);
      // Let the server see the reset before asking it something else.
      await new Promise((resolve) => setTimeout(resolve, 10));
      const answer = await catalogue();
      if (answer.status !== 200 || answer.body !== usualCatalogue.body)
        answers.push(`catalogue ${answer.status}`);
      const ready = await fetch(`${t.baseUrl}/api/ready`);
      if (ready.status !== 200) answers.push(`ready ${ready.status}`);
      // Login has its own limit of 10 a minute per address: try it every 15th turn.
      if (turn % 15 === 7) {
        const attempt = await login();
        if (attempt.status !== usualLogin.status || attempt.code !== usualLogin.code)
          answers.push(`login ${attempt.status} ${attempt.code}`);
      }
    }
    expect(answers).toEqual([]);
    expect(t.ctx.dbHealth.available).toBe(true);
  });
});
