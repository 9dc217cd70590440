/**
 * The bench's reference servers, each run in a process of its own as the app is (scripts/bench.ts):
 *
 * - `bare`: `node:http` answering a small JSON once it has read the request's body, as any server taking a POST
 *   must. What this machine can serve at all: the ratios' denominator.
 * - `fastify`: one Fastify route that parses a JSON body and answers a constant the size of a license file, with
 *   none of the app's hooks, limits or look-ups: the floor any Fastify endpoint of that size stands on.
 *
 * Prints `listening <port>` once it listens on a free loopback port.
 */
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import Fastify from 'fastify';

const kind = process.argv[2];

function announce(address: AddressInfo | string | null): void {
  if (!address || typeof address === 'string') throw new Error('not listening on a port');
  console.log(`listening ${address.port}`);
}

if (kind === 'bare') {
  const body = JSON.stringify([{ _id: 'x', name: 'PDF Utility Toolkit', priceINR: 1499 }]);
  const server = createServer((request, response) => {
    request.resume();
    request.on('end', () => {
      response.writeHead(200, {
        'content-type': 'application/json',
        'content-length': Buffer.byteLength(body),
      });
      response.end(body);
    });
  });
  server.listen(0, '127.0.0.1', () => announce(server.address()));
} else if (kind === 'fastify') {
  // A signed license file is about 600 characters of JSON text.
  const answer = { valid: true, code: 'VALID', licenseFile: JSON.stringify({ payload: 'x'.repeat(560) }) };
  const app = Fastify({ logger: false });
  app.post('/', async () => answer);
  await app.listen({ port: 0, host: '127.0.0.1' });
  announce(app.server.address());
} else {
  console.error('usage: reference-server.ts bare|fastify');
  process.exit(2);
}
