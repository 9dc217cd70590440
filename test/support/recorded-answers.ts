import { createHash, createPrivateKey } from 'node:crypto';
import { readdirSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import type { FastifyInstance, LightMyRequestResponse } from 'fastify';
import { pdfText } from './invoices-helpers';

/**
 * Answers recorded from a deterministic scenario and compared byte for byte with a later run of it
 * (src/server/recorded-answers.test.ts): what a route answers must not change when its schemas do.
 */

/** One answer as it was recorded: the request, the route that answered, and the answer's status, type and bytes. */
export type RecordedAnswer = {
  request: string;
  /** `GET /api/orders/:orderId`: the route pattern that answered, `(no route)` for the not-found handler. */
  route: string;
  status: number;
  contentType: string | null;
  /** The body as text with its random parts normalised (see `normalise`), or a digest of binary bytes. */
  body: string;
};

/** The header the recording app adds to every answer: the route pattern that answered it. */
const ANSWERED_BY = 'x-answered-by';

/** For `createTestApp({ prepare })`: every answer says which route answered it. */
export function nameAnsweringRoutes(app: FastifyInstance): void {
  app.addHook('onSend', async (request, reply, payload) => {
    reply.header(ANSWERED_BY, `${request.method} ${request.routeOptions.url ?? '(no route)'}`);
    return payload;
  });
}

/**
 * An Ed25519 private key (PKCS#8 PEM) made from `seed`: the same key on every run, so what it signs over fixed bytes
 * (a release file's Sparkle signature) and the key ids it publishes are the same too. Test data, not a secret.
 */
export function seededSigningKey(seed: string): string {
  const pkcs8Prefix = Buffer.from('302e020100300506032b657004220420', 'hex');
  const der = Buffer.concat([pkcs8Prefix, createHash('sha256').update(seed).digest()]);
  return createPrivateKey({ key: der, format: 'der', type: 'pkcs8' })
    .export({ format: 'pem', type: 'pkcs8' })
    .toString();
}

const WALL_CLOCK_SLACK_MS = 3 * 24 * 60 * 60 * 1000;
const nearWallClock = (time: number) => Math.abs(time - Date.now()) < WALL_CLOCK_SLACK_MS;

/** `find` and what replaces it; `kind` replaces each distinct match with `<kind-N>`, numbered in order of appearance. */
type Rule = { find: RegExp } & (
  | { kind: string }
  | { replace: (match: string, ...groups: string[]) => string }
);

const UNAMBIGUOUS = '2-9A-HJ-NP-Z';

/**
 * The parts of an answer that differ from run to run by design: the test server's port, random ids, tokens,
 * secrets and what is keyed by them (a license file's signed payload, an HMAC), and times taken from the wall clock
 * rather than the test's clock (a column's database default, the emulator's Unix times). Everything else (keys,
 * their order, escaping, spacing) is compared as it was sent.
 */
const RULES: Rule[] = [
  // A signed license file's payload and signature (also inside a JSON string, its quotes escaped).
  { find: /(\\?"payload\\?":\s*\\?")[A-Za-z0-9+/=]+/g, replace: (_match, key) => `${key}<payload>` },
  { find: /(\\?"signature\\?":\s*\\?")[A-Za-z0-9+/]{86}==/g, replace: (_match, key) => `${key}<signature>` },
  { find: /("razorpay_signature":")[0-9a-f]{64}/g, replace: (_match, key) => `${key}<hmac>` },
  { find: /[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}/gi, kind: 'uuid' },
  // A user id as WebAuthn carries it: the base64url of the uuid's text.
  {
    find: /\b[A-Za-z0-9_-]{48}\b/g,
    replace: (match) =>
      /^[0-9a-f-]{36}$/.test(Buffer.from(match, 'base64url').toString()) ? '<uuid in base64url>' : match,
  },
  // The passkeys a registration must not create again: their credential ids are the test authenticator's, random.
  {
    find: /"excludeCredentials":\[[^\]]*\]/g,
    replace: (list) => list.replace(/("id":")[\w-]+/g, (_match, key) => `${key}<credential id>`),
  },
  { find: /\b(?:order|pay|rfnd|disp|evt)_[A-Za-z0-9]{14}\b/g, kind: 'razorpay-id' },
  { find: /\bmsg_[0-9a-f]{32}\b/g, kind: 'webhook-message' },
  { find: new RegExp(`\\b[${UNAMBIGUOUS}]{5}(?:-[${UNAMBIGUOUS}]{5}){3}\\b`, 'g'), kind: 'license-key' },
  {
    find: new RegExp(`(•{5}-•{5}-•{5}-•)[${UNAMBIGUOUS}]{4}`, 'g'),
    replace: (_m, mask) => `${mask}<last 4>`,
  },
  { find: /\bpca-[2-9a-hjkmnp-z]{8}\b/g, kind: 'username' },
  {
    find: /(Password(?:\\n|\n) +)[2-9A-HJ-NP-Za-hjkmnp-z]{16}/g,
    replace: (_m, label) => `${label}<password>`,
  },
  // A code sent by email (sign-up, password reset, a new email address), as the development mailbox lists it.
  { find: /(code(?:\\n|\n) +)\d{4,6}\b/g, replace: (_match, label) => `${label}<code>` },
  // How long a webhook delivery's attempt took.
  { find: /("durationMs":)\d+/g, replace: (_match, key) => `${key}<ms>` },
  { find: /whsec_[A-Za-z0-9+/=]+/g, kind: 'webhook-secret' },
  // A second factor's enrolment: its secret, the QR code of it, and the recovery codes.
  { find: /\b[A-Z2-7]{32}\b/g, kind: 'totp-secret' },
  { find: /<svg[\s\S]*?<\/svg>/g, replace: () => '<svg of the QR code>' },
  { find: /\b[A-Z2-9]{5}-[A-Z2-9]{5}\b/g, kind: 'recovery-code' },
  { find: /(?<![\w-])[\w-]{43}(?![\w-])/g, kind: 'token' },
  // The unsubscribe link's token: the account's id, the topic and an HMAC of both.
  { find: /(token=<uuid-\d+>\.\w+\.)[0-9a-f]{64}/g, replace: (_match, start) => `${start}<hmac>` },
  // A session's last use is written by the request that finds the session cache's entry gone, and that cache ages
  // its entries in real time (kernel/ttl-cache.ts): which request that is depends on the machine's pace.
  {
    find: /("signedInAt":\s*"[^"]*",\s*"lastUsedAt":\s*")[^"]*/g,
    replace: (_match, start) => `${start}<last use>`,
  },
  {
    find: /\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(?:\.\d+)?(?:Z|[+-]\d{2}:\d{2})/g,
    replace: (time) => (nearWallClock(Date.parse(time)) ? '<wall-clock time>' : time),
  },
  {
    find: /\b\d{1,2} [A-Z][a-z]{2} \d{4}, \d{2}:\d{2}:\d{2} UTC\b/g,
    replace: (time) => (nearWallClock(Date.parse(time.replace(',', ''))) ? '<wall-clock time>' : time),
  },
  {
    find: /(?<!\d)1[789]\d{8}(?!\d)/g,
    replace: (seconds) => (nearWallClock(Number(seconds) * 1000) ? '<wall-clock seconds>' : seconds),
  },
];

/** `text` with the test server's address and each rule's matches replaced (see RULES). */
export function normalise(text: string, baseUrl: string): string {
  let result = text.split(baseUrl).join('http://shop.test');
  for (const rule of RULES) {
    if ('replace' in rule) {
      result = result.replace(rule.find, rule.replace);
      continue;
    }
    const numbered = new Map<string, string>();
    result = result.replace(rule.find, (match) => {
      const placeholder = numbered.get(match) ?? `<${rule.kind}-${numbered.size + 1}>`;
      numbered.set(match, placeholder);
      return placeholder;
    });
  }
  return result;
}

const TEXT_TYPES = /^(text\/|application\/(json|javascript|xml|rss\+xml))/;

/**
 * What an answer is recorded as: its text normalised; a PDF as its text (poppler's pdftotext, normalised: a tax
 * document shows ids); other bytes as their length and digest.
 */
export async function recordAnswer(
  response: LightMyRequestResponse,
  baseUrl: string,
): Promise<RecordedAnswer> {
  const contentType = response.headers['content-type'];
  const type = typeof contentType === 'string' ? contentType : null;
  const bytes = response.rawPayload;
  const body =
    bytes.length === 0 || TEXT_TYPES.test(type ?? 'text/')
      ? normalise(bytes.toString('utf8'), baseUrl)
      : type === 'application/pdf'
        ? `<PDF, its text:>\n${normalise(await pdfText(bytes), baseUrl)}`
        : `<${bytes.length} bytes, sha256 ${createHash('sha256').update(bytes).digest('hex')}>`;
  return {
    request: normalise(`${response.raw.req.method} ${response.raw.req.url}`, baseUrl),
    route: String(response.headers[ANSWERED_BY] ?? '(not recorded)'),
    status: response.statusCode,
    contentType: type,
    body,
  };
}

/** The recordings of one scenario: a JSON file per area, `{ step: answer }`, in the folder given. */
export function readRecordings(folder: string): Map<string, Record<string, RecordedAnswer>> {
  return new Map(
    readdirSync(folder)
      .filter((file) => file.endsWith('.json'))
      .map((file) => [
        path.basename(file, '.json'),
        JSON.parse(readFileSync(path.join(folder, file), 'utf8')) as Record<string, RecordedAnswer>,
      ]),
  );
}

export function writeRecordings(folder: string, areas: Map<string, Map<string, RecordedAnswer>>): void {
  for (const [area, steps] of areas)
    writeFileSync(
      path.join(folder, `${area}.json`),
      `${JSON.stringify(Object.fromEntries(steps), null, 2)}\n`,
    );
}
