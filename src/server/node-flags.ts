/**
 * The Node flags the server runs with (`npm start`, and every test and bench that starts a server process; keep the
 * `start` script in package.json the same). A young generation of 64 MB instead of 16: a server allocates mostly
 * per-request garbage, and four times fewer scavenges cost the license API's hottest call about 8% less CPU
 * (docs/performance.md), for at most 144 MB more memory under load.
 */
export const SERVER_NODE_FLAGS = ['--max-semi-space-size=64'];
