/**
 * The bench's floor (scripts/bench.ts): one Fastify route, in a process of its own as the app is, that parses a
 * JSON body when one is sent and answers a constant the size of a license file, with none of the app's hooks,
 * limits or look-ups. What any Fastify endpoint of that size costs on this machine; each route's budget is a share
 * of it (decision 026).
 *
 * Prints `listening <port>` once it listens on a free loopback port.
 */
import Fastify from 'fastify';

// A signed license file is about 600 characters of JSON text.
const answer = { valid: true, code: 'VALID', licenseFile: JSON.stringify({ payload: 'x'.repeat(560) }) };
const app = Fastify({ logger: false });
app.route({ method: ['GET', 'POST'], url: '/', handler: async () => answer });
await app.listen({ port: 0, host: '127.0.0.1' });
const address = app.server.address();
if (!address || typeof address === 'string') throw new Error('not listening on a port');
console.log(`listening ${address.port}`);
