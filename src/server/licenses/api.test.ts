import { createPublicKey, generateKeyPairSync, type KeyObject, verify } from 'node:crypto';
import { count, eq, like } from 'drizzle-orm';
import { beforeAll, describe, expect, it } from 'vitest';
import { testConfig } from '../../../test/support/app';
import { testAppForFile } from '../../../test/support/file-apps';
import { fingerprint, type LicensedPurchase, licensedPurchase } from '../../../test/support/license-fixtures';
import { answerChecker } from '../../../test/support/openapi';
import type {
  LicenseAnswer,
  LicenseFile,
  LicenseFilePayload,
  PublicKeysResponse,
} from '../../shared/licenses';
import { licenseActivations, licenses } from '../db/schema/licenses';
import { purchases } from '../db/schema/orders';
import { rateLimitHits } from '../db/schema/rate-limits';
import { issueLicenseFile } from './files';
import { forgetLicenses, UNKNOWN_LICENSE_CACHE_MAX_ENTRIES } from './memory';
import { createSigningKeys } from './signing';
import { validateLicense } from './validate';

const t = testAppForFile();
let addressCounter = 0;
/** Every answer of this file's calls is checked against the OpenAPI document's schema for its status. */
let matchesDocument: Awaited<ReturnType<typeof answerChecker>>;
beforeAll(async () => {
  matchesDocument = await answerChecker(t.app);
});

/** Each call from its own address unless told, so the per-address limit only bites where a test wants it. */
async function call(
  action: 'activate' | 'validate' | 'deactivate',
  body: unknown,
  options: { ip?: string; contentType?: string; raw?: string } = {},
) {
  const response = await t.app.inject({
    method: 'POST',
    url: `/api/licenses/${action}`,
    headers: { 'content-type': options.contentType ?? 'application/json' },
    payload: options.raw ?? JSON.stringify(body),
    remoteAddress: options.ip ?? `10.1.${Math.floor(addressCounter / 250)}.${(addressCounter++ % 250) + 1}`,
  });
  matchesDocument('POST', `/api/licenses/${action}`, {
    statusCode: response.statusCode,
    body: response.body,
  });
  return { response, answer: response.json<LicenseAnswer & { fieldErrors?: Record<string, string> }>() };
}

const keyOf = (purchase: LicensedPurchase) => ({
  licenseKey: purchase.licenseKey ?? '',
  toolId: purchase.toolId,
});

async function seatsUsed(licenseId: string) {
  const rows = await t.ctx.db
    .select({ n: count() })
    .from(licenseActivations)
    .where(eq(licenseActivations.licenseId, licenseId));
  return rows[0]?.n ?? 0;
}

describe('activation seats', () => {
  it('activates two machines, refuses a third, and gives a repeated machine its own activation back', async () => {
    const purchase = await licensedPurchase(t.ctx);
    const [a, b, c] = [fingerprint('a'), fingerprint('b'), fingerprint('c')];

    const first = await call('activate', { ...keyOf(purchase), fingerprint: a, name: 'Office PC' });
    expect(first.response.statusCode).toBe(200);
    expect(first.answer).toMatchObject({
      valid: true,
      code: 'VALID',
      license: { toolId: purchase.toolId, status: 'active', activationLimit: 2, activationsUsed: 1 },
      activation: { fingerprint: a, name: 'Office PC' },
    });
    expect(typeof first.answer.licenseFile).toBe('string');

    const second = await call('activate', { ...keyOf(purchase), fingerprint: b });
    expect(second.answer).toMatchObject({ valid: true, code: 'VALID', license: { activationsUsed: 2 } });

    const third = await call('activate', { ...keyOf(purchase), fingerprint: c });
    expect(third.response.statusCode).toBe(200);
    expect(third.answer).toMatchObject({
      valid: false,
      code: 'LIMIT_REACHED',
      license: { activationsUsed: 2 },
    });
    expect(third.answer.licenseFile).toBeUndefined();

    const again = await call('activate', { ...keyOf(purchase), fingerprint: a });
    expect(again.answer).toMatchObject({ valid: true, code: 'VALID', license: { activationsUsed: 2 } });
    expect(again.answer.activation?.id).toBe(first.answer.activation?.id);
    expect(again.answer.activation?.name).toBe('Office PC');
    expect(await seatsUsed(purchase.licenseId)).toBe(2);
    // Each machine has its own update feeds, and the same ones again when it activates again.
    expect(first.answer.updates?.appcastUrl).toMatch(
      /^http:\/\/localhost:3000\/api\/updates\/[\w-]{43}\/appcast\.xml$/,
    );
    expect(first.answer.updates?.velopackUrl).toBe(
      first.answer.updates?.appcastUrl.replace('appcast.xml', ''),
    );
    expect(again.answer.updates).toEqual(first.answer.updates);
    expect(second.answer.updates?.velopackUrl).not.toBe(first.answer.updates?.velopackUrl);

    const freed = await call('deactivate', { ...keyOf(purchase), fingerprint: b });
    expect(freed.answer).toMatchObject({
      valid: false,
      code: 'NOT_ACTIVATED',
      deactivated: true,
      license: { activationsUsed: 1 },
    });
    expect((await call('validate', { ...keyOf(purchase), fingerprint: b })).answer.code).toBe(
      'NOT_ACTIVATED',
    );
    const afterFree = await call('activate', { ...keyOf(purchase), fingerprint: c });
    expect(afterFree.answer).toMatchObject({ valid: true, code: 'VALID', license: { activationsUsed: 2 } });
    // The freed machine stays on record for the operator.
    expect(await seatsUsed(purchase.licenseId)).toBe(3);
  });

  it('never lets concurrent activations exceed the limit', async () => {
    const purchase = await licensedPurchase(t.ctx, { activationLimit: 2 });
    const machines = Array.from({ length: 8 }, (_, index) => fingerprint(`m${index}`));
    const answers = await Promise.all(
      [...machines, ...machines].map((machine) =>
        call('activate', { ...keyOf(purchase), fingerprint: machine }),
      ),
    );
    const valid = answers.filter(({ answer }) => answer.valid);
    expect(new Set(valid.map(({ answer }) => answer.activation?.fingerprint)).size).toBe(2);
    expect(answers.filter(({ answer }) => answer.code === 'LIMIT_REACHED').length).toBe(16 - valid.length);
    expect(await seatsUsed(purchase.licenseId)).toBe(2);
  });

  it('honours the activation limit the operator set for the tool', async () => {
    const purchase = await licensedPurchase(t.ctx, { activationLimit: 1 });
    expect((await call('activate', { ...keyOf(purchase), fingerprint: fingerprint() })).answer.code).toBe(
      'VALID',
    );
    expect((await call('activate', { ...keyOf(purchase), fingerprint: fingerprint() })).answer.code).toBe(
      'LIMIT_REACHED',
    );
  });
});

describe('answer codes', () => {
  it('tells a key for another tool, a random key, a refund and a dispute apart', async () => {
    const purchase = await licensedPurchase(t.ctx);
    const other = await licensedPurchase(t.ctx);
    const machine = fingerprint();
    await call('activate', { ...keyOf(purchase), fingerprint: machine });

    const validate = async (body: Record<string, unknown>) =>
      (await call('validate', { fingerprint: machine, ...body })).answer;
    expect(await validate(keyOf(purchase))).toMatchObject({ valid: true, code: 'VALID' });
    expect(
      await validate({ ...keyOf(purchase), licenseKey: purchase.licenseKey?.toLowerCase() }),
    ).toMatchObject({
      code: 'VALID',
    });
    expect(await validate({ ...keyOf(purchase), toolId: other.toolId })).toEqual({
      valid: false,
      code: 'WRONG_TOOL',
    });
    expect(await validate({ ...keyOf(purchase), licenseKey: 'AAAAA-BBBBB-CCCCC-DDDDD' })).toEqual({
      valid: false,
      code: 'INVALID_KEY',
    });
    expect(
      (await call('activate', { ...keyOf(other), toolId: purchase.toolId, fingerprint: machine })).answer,
    ).toEqual({
      valid: false,
      code: 'WRONG_TOOL',
    });

    // These changes go straight to the database, past this instance, so its remembered copies are dropped here
    // as the change's own code path would (how a change made elsewhere shows is tested below).
    await t.ctx.db.update(licenses).set({ status: 'suspended' }).where(eq(licenses.id, purchase.licenseId));
    forgetLicenses(t.ctx);
    expect(await validate(keyOf(purchase))).toEqual({ valid: false, code: 'SUSPENDED' });
    expect((await call('activate', { ...keyOf(purchase), fingerprint: fingerprint() })).answer.code).toBe(
      'SUSPENDED',
    );

    await t.ctx.db.update(licenses).set({ status: 'active' }).where(eq(licenses.id, purchase.licenseId));
    forgetLicenses(t.ctx);
    expect(await validate(keyOf(purchase))).toMatchObject({ code: 'VALID' });

    // A refunded purchase is revoked even before anything touches the license row.
    await t.ctx.db
      .update(purchases)
      .set({ refundedAt: new Date() })
      .where(eq(purchases.id, purchase.purchaseId));
    forgetLicenses(t.ctx);
    expect(await validate(keyOf(purchase))).toEqual({ valid: false, code: 'REVOKED' });
    expect((await call('activate', { ...keyOf(purchase), fingerprint: machine })).answer).toMatchObject({
      valid: false,
      code: 'REVOKED',
    });
  });

  it('answers a change made elsewhere within 2 seconds, and one made through this instance at once', async () => {
    const purchase = await licensedPurchase(t.ctx);
    const machine = fingerprint();
    const body = { ...keyOf(purchase), fingerprint: machine };
    await call('activate', body);
    expect((await call('validate', body)).answer.code).toBe('VALID');

    // Another instance (or the admin command line) revokes it: this instance has the license in memory.
    await t.ctx.db.update(licenses).set({ status: 'revoked' }).where(eq(licenses.id, purchase.licenseId));
    const changedAt = performance.now();
    let answer = (await call('validate', body)).answer;
    while (answer.code === 'VALID' && performance.now() - changedAt < 5000) {
      await new Promise((resolve) => setTimeout(resolve, 100));
      answer = (await call('validate', body)).answer;
    }
    expect(answer).toEqual({ valid: false, code: 'REVOKED' });
    expect(performance.now() - changedAt).toBeLessThan(2000);

    // Freed through this instance's own API: the machine is told at once.
    const other = await licensedPurchase(t.ctx);
    const otherBody = { ...keyOf(other), fingerprint: machine };
    await call('activate', otherBody);
    expect((await call('validate', otherBody)).answer.code).toBe('VALID');
    await call('deactivate', otherBody);
    expect((await call('validate', otherBody)).answer.code).toBe('NOT_ACTIVATED');
    await call('activate', otherBody);
    expect((await call('validate', otherBody)).answer.code).toBe('VALID');
  });

  it('records when a machine was last seen: on its first validate, then at most every 5 minutes', async () => {
    const purchase = await licensedPurchase(t.ctx);
    const machine = fingerprint();
    // Activated yesterday and not seen since: the first validate records it.
    const yesterday = new Date(t.clock.now().getTime() - 24 * 60 * 60_000);
    await t.ctx.db.insert(licenseActivations).values({
      licenseId: purchase.licenseId,
      fingerprint: machine,
      activatedAt: yesterday,
      lastSeenAt: yesterday,
    });
    const lastSeen = async () =>
      (await t.ctx.db.select().from(licenseActivations).where(eq(licenseActivations.fingerprint, machine)))[0]
        ?.lastSeenAt;
    await call('validate', { ...keyOf(purchase), fingerprint: machine });
    const first = t.clock.now();
    expect(await lastSeen()).toEqual(first);

    t.clock.advance(4 * 60_000);
    await call('validate', { ...keyOf(purchase), fingerprint: machine });
    expect(await lastSeen()).toEqual(first);
    // Also when the instance has forgotten the license meanwhile.
    forgetLicenses(t.ctx);
    await call('validate', { ...keyOf(purchase), fingerprint: machine });
    expect(await lastSeen()).toEqual(first);
    t.clock.advance(60_000);
    await call('validate', { ...keyOf(purchase), fingerprint: machine });
    expect(await lastSeen()).toEqual(t.clock.now());
  });

  it('lets a credentials tool authenticate with the emailed username and password', async () => {
    const purchase = await licensedPurchase(t.ctx, { delivery: 'credentials' });
    const account = { username: purchase.username, password: purchase.password, toolId: purchase.toolId };
    const machine = fingerprint();
    expect((await call('activate', { ...account, fingerprint: machine })).answer).toMatchObject({
      valid: true,
      code: 'VALID',
    });
    expect((await call('validate', { ...account, fingerprint: machine })).answer.code).toBe('VALID');
    expect(
      (await call('validate', { ...account, password: 'wrong-password', fingerprint: machine })).answer,
    ).toEqual({
      valid: false,
      code: 'INVALID_KEY',
    });
    const file = JSON.parse(
      (await call('validate', { ...account, fingerprint: machine })).answer.licenseFile ?? '',
    );
    const payload = JSON.parse(Buffer.from(file.payload, 'base64').toString('utf8')) as LicenseFilePayload;
    expect(payload).toMatchObject({ username: purchase.username, licenseKey: null });
    expect(JSON.stringify(payload)).not.toContain(purchase.password ?? '');
  });
});

describe('offline license files', () => {
  it('are signed with a published key, bound to the machine, and any changed byte breaks them', async () => {
    const purchase = await licensedPurchase(t.ctx);
    const machine = fingerprint();
    const { answer } = await call('activate', { ...keyOf(purchase), fingerprint: machine });
    const file = JSON.parse(answer.licenseFile ?? '') as LicenseFile;
    expect(Object.keys(file)).toEqual(['alg', 'kid', 'payload', 'signature']);
    expect(file.alg).toBe('ed25519');

    const published = (await t.app.inject({ url: '/api/licenses/public-keys' })).json<PublicKeysResponse>();
    const key = published.keys.find((candidate) => candidate.kid === file.kid);
    expect(key).toBeDefined();
    const check = (payload: Buffer, signature: Buffer) =>
      verify(null, payload, createPublicKey(key?.publicKey ?? ''), signature);
    const payload = Buffer.from(file.payload, 'base64');
    const signature = Buffer.from(file.signature, 'base64');
    expect(check(payload, signature)).toBe(true);

    const decoded = JSON.parse(payload.toString('utf8')) as LicenseFilePayload;
    expect(decoded).toMatchObject({
      licenseKey: purchase.licenseKey,
      toolId: purchase.toolId,
      fingerprint: machine,
      status: 'active',
      issuedAt: t.clock.now().toISOString(),
      refreshBefore: new Date(t.clock.now().getTime() + 30 * 24 * 60 * 60 * 1000).toISOString(),
    });

    for (const index of [0, Math.floor(payload.length / 2), payload.length - 1]) {
      const changed = Buffer.from(payload);
      changed[index] = (changed[index] ?? 0) ^ 1;
      expect(check(changed, signature)).toBe(false);
    }
    const badSignature = Buffer.from(signature);
    badSignature[5] = (badSignature[5] ?? 0) ^ 1;
    expect(check(payload, badSignature)).toBe(false);
  });

  it('keep verifying after a key rotation, through the previous public keys', async () => {
    const oldKey = generateKeyPairSync('ed25519');
    const newKey = generateKeyPairSync('ed25519');
    const pem = (key: KeyObject, type: 'pkcs8' | 'spki') => key.export({ format: 'pem', type }).toString();
    const before = createSigningKeys(testConfig({ LICENSE_SIGNING_KEY: pem(oldKey.privateKey, 'pkcs8') }));
    const oldFile = JSON.parse(
      issueLicenseFile(
        before,
        {
          licenseKey: 'AAAAA-BBBBB-CCCCC-DDDDD',
          username: null,
          toolId: '00000000-0000-4000-8000-000000000000',
          toolName: 'Old tool',
          fingerprint: fingerprint(),
          activationId: '00000000-0000-4000-8000-000000000001',
          status: 'active',
          edition: null,
          entitlements: [],
          updatesUntil: null,
        },
        new Date(),
      ),
    ) as LicenseFile;

    const after = createSigningKeys(
      testConfig({
        LICENSE_SIGNING_KEY: pem(newKey.privateKey, 'pkcs8'),
        LICENSE_PREVIOUS_PUBLIC_KEYS: pem(oldKey.publicKey, 'spki'),
      }),
    );
    expect(after.kid).not.toBe(before.kid);
    expect(after.published.map((key) => key.publicKey)).toEqual([
      pem(newKey.publicKey, 'spki'),
      pem(oldKey.publicKey, 'spki'),
    ]);
    const old = after.published.find((candidate) => candidate.kid === oldFile.kid);
    expect(
      verify(
        null,
        Buffer.from(oldFile.payload, 'base64'),
        createPublicKey(old?.publicKey ?? ''),
        Buffer.from(oldFile.signature, 'base64'),
      ),
    ).toBe(true);
    expect(after.verify(oldFile)).toBe(true);
    // Without the old key in the list, its files no longer verify.
    expect(
      createSigningKeys(testConfig({ LICENSE_SIGNING_KEY: pem(newKey.privateKey, 'pkcs8') })).verify(oldFile),
    ).toBe(false);
  });
});

describe('bad input', () => {
  const valid = { licenseKey: 'AAAAA-BBBBB-CCCCC-DDDDD', toolId: '00000000-0000-4000-8000-000000000000' };
  const machine = 'machine-0123456789abcdef';
  const cases: Array<[string, Record<string, unknown>, string]> = [
    ['no key at all', { toolId: valid.toolId, fingerprint: machine }, 'licenseKey'],
    ['no toolId', { licenseKey: valid.licenseKey, fingerprint: machine }, 'toolId'],
    ['no fingerprint', valid, 'fingerprint'],
    ['a short fingerprint', { ...valid, fingerprint: 'short' }, 'fingerprint'],
    ['an oversized fingerprint', { ...valid, fingerprint: 'f'.repeat(129) }, 'fingerprint'],
    ['a fingerprint with a space', { ...valid, fingerprint: 'machine 0123456789abcdef' }, 'fingerprint'],
    ['NUL in the fingerprint', { ...valid, fingerprint: `${machine}\u0000` }, 'fingerprint'],
    ['NUL in the key', { ...valid, licenseKey: 'AAAAA\u0000', fingerprint: machine }, 'licenseKey'],
    ['an oversized key', { ...valid, licenseKey: 'A'.repeat(65), fingerprint: machine }, 'licenseKey'],
    ['a number as key', { ...valid, licenseKey: 12345, fingerprint: machine }, 'licenseKey'],
    ['an array as toolId', { ...valid, toolId: [valid.toolId], fingerprint: machine }, 'toolId'],
    ['a toolId that is no UUID', { ...valid, toolId: 'tool-1', fingerprint: machine }, 'toolId'],
    ['a NUL in the name', { ...valid, fingerprint: machine, name: 'PC\u0000' }, 'name'],
    ['a line break in the name', { ...valid, fingerprint: machine, name: 'PC\r\nX' }, 'name'],
    ['a lone surrogate in the name', { ...valid, fingerprint: machine, name: 'PC\ud800' }, 'name'],
    ['an oversized name', { ...valid, fingerprint: machine, name: 'n'.repeat(65) }, 'name'],
    [
      'a key and a username',
      { ...valid, username: 'pca-x', password: 'p', fingerprint: machine },
      'licenseKey',
    ],
    [
      'a username without password',
      { toolId: valid.toolId, username: 'pca-x', fingerprint: machine },
      'password',
    ],
    ['an unknown field', { ...valid, fingerprint: machine, admin: true }, '_'],
  ];

  it.each(cases)(
    'answers 400 with a field error for %s, and changes nothing',
    async (_label, body, field) => {
      const before = await t.ctx.db.select({ n: count() }).from(licenseActivations);
      const { response, answer } = await call('activate', body);
      expect(response.statusCode).toBe(400);
      expect(answer.valid).toBe(false);
      expect(answer.code).toBe('validation_error');
      expect(Object.keys(answer.fieldErrors ?? {})).toContain(field);
      expect(await t.ctx.db.select({ n: count() }).from(licenseActivations)).toEqual(before);
    },
  );

  it('takes JSON only, with a small body, and sets no cookie or CORS header', async () => {
    const form = await call('validate', undefined, {
      contentType: 'application/x-www-form-urlencoded',
      raw: `licenseKey=${valid.licenseKey}&toolId=${valid.toolId}&fingerprint=${machine}`,
    });
    expect(form.response.statusCode).toBe(415);
    expect(form.answer).toMatchObject({ valid: false, code: 'unsupported_media_type' });
    const text = await call('validate', undefined, { contentType: 'text/plain', raw: JSON.stringify(valid) });
    expect(text.response.statusCode).toBe(415);
    const broken = await call('validate', undefined, { raw: '{"licenseKey":' });
    expect(broken.response.statusCode).toBe(400);
    expect(broken.answer.valid).toBe(false);
    const huge = await call('validate', { ...valid, fingerprint: machine, pad: 'x'.repeat(5000) });
    expect(huge.response.statusCode).toBe(413);

    const response = await t.app.inject({
      method: 'POST',
      url: '/api/licenses/validate',
      headers: { 'content-type': 'application/json', origin: 'https://evil.example' },
      payload: JSON.stringify({ ...valid, fingerprint: machine }),
    });
    expect(response.statusCode).toBe(200);
    expect(response.headers['set-cookie']).toBeUndefined();
    expect(response.headers['access-control-allow-origin']).toBeUndefined();
    const preflight = await t.app.inject({
      method: 'OPTIONS',
      url: '/api/licenses/validate',
      headers: { origin: 'https://evil.example', 'access-control-request-method': 'POST' },
    });
    expect(preflight.headers['access-control-allow-origin']).toBeUndefined();
  });
});

describe('rate limits', () => {
  it('answers the 61st request a minute for one key with 429 and Retry-After', async () => {
    const purchase = await licensedPurchase(t.ctx);
    const body = { ...keyOf(purchase), fingerprint: fingerprint() };
    for (let i = 0; i < 60; i++) {
      expect((await call('validate', body)).response.statusCode).toBe(200);
    }
    const limited = await call('validate', body);
    expect(limited.response.statusCode).toBe(429);
    expect(Number(limited.response.headers['retry-after'])).toBeGreaterThan(0);
    expect(limited.answer).toMatchObject({ valid: false, code: 'rate_limited' });
    // Another key from the same moment is not affected.
    const other = await licensedPurchase(t.ctx);
    expect(
      (await call('validate', { ...keyOf(other), fingerprint: fingerprint() })).response.statusCode,
    ).toBe(200);
    t.clock.advance(60_000);
    expect((await call('validate', body)).response.statusCode).toBe(200);
  });

  it('answers the 121st request a minute from one address with 429, whatever the keys', async () => {
    const ip = '192.0.2.77';
    const statuses: number[] = [];
    for (let i = 0; i < 121; i++) {
      const body = {
        licenseKey: `KEY${i}`,
        toolId: '00000000-0000-4000-8000-000000000000',
        fingerprint: fingerprint(),
      };
      statuses.push((await call('validate', body, { ip })).response.statusCode);
    }
    expect(statuses.slice(0, 120).every((status) => status === 200)).toBe(true);
    expect(statuses[120]).toBe(429);
    // Counted in this instance's memory: the license API writes no counter to the database (decision 016).
    const counted = await t.ctx.db
      .select()
      .from(rateLimitHits)
      .where(like(rateLimitHits.key, `%${ip}%`));
    expect(counted).toEqual([]);
  });
});

describe('what an instance remembers for validate', () => {
  it('keeps unknown keys apart and bounded, so a flood of bad keys pushes out no known license', async () => {
    const purchase = await licensedPurchase(t.ctx);
    const machine = fingerprint();
    await call('activate', { ...keyOf(purchase), fingerprint: machine });
    const request = { licenseKey: purchase.licenseKey ?? '', toolId: purchase.toolId, fingerprint: machine };
    expect((await validateLicense(t.ctx, request)).code).toBe('VALID');
    const known = t.ctx.caches.licenses.size;
    expect(known).toBeGreaterThan(0);

    const flood = UNKNOWN_LICENSE_CACHE_MAX_ENTRIES + 200;
    for (let start = 0; start < flood; start += 50) {
      const answers = await Promise.all(
        Array.from({ length: 50 }, (_, index) =>
          validateLicense(t.ctx, { ...request, licenseKey: `BAD-${start + index}` }),
        ),
      );
      expect(answers.every((answer) => answer.code === 'INVALID_KEY')).toBe(true);
    }
    // Full, not beyond (a tenth is pushed out at a time): the oldest bad keys went, and nothing the other cache holds.
    expect(t.ctx.caches.unknownLicenses.size).toBeLessThanOrEqual(UNKNOWN_LICENSE_CACHE_MAX_ENTRIES);
    expect(t.ctx.caches.unknownLicenses.size).toBeGreaterThanOrEqual(UNKNOWN_LICENSE_CACHE_MAX_ENTRIES * 0.9);
    expect(t.ctx.caches.licenses.size).toBe(known);
  });

  it('gives each of many simultaneous calls its own answer, though they share one database query', async () => {
    const one = await licensedPurchase(t.ctx);
    const two = await licensedPurchase(t.ctx);
    const [a, b, c] = [fingerprint('a'), fingerprint('b'), fingerprint('c')];
    await call('activate', { ...keyOf(one), fingerprint: a });
    await call('activate', { ...keyOf(one), fingerprint: b });
    await call('activate', { ...keyOf(two), fingerprint: c });
    forgetLicenses(t.ctx);
    const cases: [Record<string, string>, string][] = [
      [{ ...keyOf(one), fingerprint: a }, 'VALID'],
      [{ ...keyOf(one), fingerprint: b }, 'VALID'],
      [{ ...keyOf(one), fingerprint: c }, 'NOT_ACTIVATED'],
      [{ ...keyOf(two), fingerprint: c }, 'VALID'],
      [{ ...keyOf(two), fingerprint: a }, 'NOT_ACTIVATED'],
      [{ ...keyOf(two), toolId: one.toolId, fingerprint: c }, 'WRONG_TOOL'],
      [{ ...keyOf(one), licenseKey: 'NO-SUCH-KEY', fingerprint: a }, 'INVALID_KEY'],
    ];
    const answers = await Promise.all(
      cases.map(([body]) => validateLicense(t.ctx, body as Parameters<typeof validateLicense>[1])),
    );
    expect(answers.map((answer) => answer.code)).toEqual(cases.map(([, code]) => code));
    const machineOf = (answer: LicenseAnswer) =>
      (
        JSON.parse(
          Buffer.from((JSON.parse(answer.licenseFile ?? '') as LicenseFile).payload, 'base64').toString(),
        ) as LicenseFilePayload
      ).fingerprint;
    expect([answers[0], answers[1], answers[3]].map((answer) => machineOf(answer as LicenseAnswer))).toEqual([
      a,
      b,
      c,
    ]);
  });

  it('hands out the license file it signed while it remembers the license, and a fresh one afterwards', async () => {
    const purchase = await licensedPurchase(t.ctx);
    const machine = fingerprint();
    await call('activate', { ...keyOf(purchase), fingerprint: machine });
    const request = { licenseKey: purchase.licenseKey ?? '', toolId: purchase.toolId, fingerprint: machine };
    const first = await validateLicense(t.ctx, request);
    t.clock.advance(1000);
    const second = await validateLicense(t.ctx, request);
    forgetLicenses(t.ctx);
    const third = await validateLicense(t.ctx, request);
    expect(first.licenseFile).toBeDefined();
    expect(second.licenseFile).toBe(first.licenseFile);
    const issuedAt = (answer: LicenseAnswer) =>
      (
        JSON.parse(
          Buffer.from((JSON.parse(answer.licenseFile ?? '') as LicenseFile).payload, 'base64').toString(),
        ) as LicenseFilePayload
      ).issuedAt;
    expect(issuedAt(third)).toBe(t.clock.now().toISOString());
    expect(issuedAt(third)).not.toBe(issuedAt(first));
  });
});
