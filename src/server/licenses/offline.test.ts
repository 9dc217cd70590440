import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  OfflineActivation,
  offlineStateFile,
  type PublicKey,
  verifyLicenseFile,
} from '../../../packages/license-client/src/index';
import type { TestClient } from '../../../test/support/client';
import { fingerprint, licensedPurchase } from '../../../test/support/license-fixtures';
import { answerChecker } from '../../../test/support/openapi';
import { createShopTestApp, loginAs, type ShopTestApp } from '../../../test/support/shop-fixtures';
import { seatMember } from '../../../test/support/team-fixtures';
import type { MyLicense } from '../../shared/licenses';
import { OFFLINE_MESSAGES } from '../../shared/offline-activation';
import { toolEditions, tools } from '../db/schema/catalogue';
import { licenses } from '../db/schema/licenses';
import { activateLicense } from './activate';
import { deactivateLicense } from './deactivate';
import { deactivationCodeOf } from './offline';

/**
 * Computers without internet (issue 67) through the real routes, as the reference client and a signed-in browser
 * use them: the client makes the request, the buyer uploads it, the client checks the response with no server to
 * ask. Runs on PGlite and on PostgreSQL.
 */
let t: ShopTestApp;
let matchesDocument: Awaited<ReturnType<typeof answerChecker>>;
let publicKeys: PublicKey[];
const folders: string[] = [];
const DAY_MS = 24 * 60 * 60 * 1000;
const OFFLINE_ACTIVATIONS = '/api/my-licenses/{licenseId}/offline-activations';
const OFFLINE_DEACTIVATIONS = '/api/my-licenses/{licenseId}/offline-deactivations';

beforeAll(async () => {
  // Listening, for the team invitation's fixture (the API as people use it).
  t = await createShopTestApp();
  matchesDocument = await answerChecker(t.app);
  publicKeys = (await t.app.inject({ method: 'GET', url: '/api/licenses/public-keys' })).json().keys;
});
afterAll(async () => {
  await t.close();
  for (const folder of folders) rmSync(folder, { recursive: true, force: true });
});

/** A computer with the reference client, its state in a folder of its own, its clock the shop's (the test's). */
function computer(now = () => t.clock.now()) {
  const folder = mkdtempSync(path.join(tmpdir(), 'offline-machine-'));
  folders.push(folder);
  const store = offlineStateFile(path.join(folder, 'offline-license.json'));
  return { store, client: new OfflineActivation({ publicKeys, store, now }), fingerprint: fingerprint('pc') };
}

/** A buyer signed in on My Tools, with a bought license of a new tool. */
async function buyerWith(options: { activationLimit?: number } = {}) {
  const purchase = await licensedPurchase(t.ctx, { activationLimit: options.activationLimit ?? 2 });
  const browser = await loginAs(t, { id: purchase.userId });
  return { purchase, browser };
}

async function upload(browser: TestClient, licenseId: string, request: string, accept = 'application/json') {
  const response = await browser.post(
    `/api/my-licenses/${licenseId}/offline-activations`,
    { request },
    { accept },
  );
  if (accept === 'application/json') matchesDocument('POST', OFFLINE_ACTIVATIONS, response);
  return response;
}

async function freeWithCode(browser: TestClient, licenseId: string, code: string) {
  const response = await browser.post(`/api/my-licenses/${licenseId}/offline-deactivations`, { code });
  matchesDocument('POST', OFFLINE_DEACTIVATIONS, response);
  return response;
}

const myLicense = async (browser: TestClient, licenseId: string) =>
  ((await browser.get('/api/my-licenses/')).json() as MyLicense[]).find(
    (license) => license.licenseId === licenseId,
  );

/** The request's JSON, changed by `change`, encoded again: what a person could type into a request by hand. */
function rewritten(request: string, change: (content: Record<string, unknown>) => void): string {
  const [prefix, encoded = ''] = request.split('.');
  const content = JSON.parse(Buffer.from(encoded, 'base64url').toString('utf8'));
  change(content);
  return `${prefix}.${Buffer.from(JSON.stringify(content)).toString('base64url')}`;
}

const payloadOf = (file: string) =>
  JSON.parse(Buffer.from(JSON.parse(file).payload, 'base64').toString('utf8'));

describe('a computer activated without internet', () => {
  it('makes a short request, gets its response from My Tools and runs on it offline, with its edition and end', async () => {
    const { purchase, browser } = await buyerWith();
    const [edition] = await t.ctx.db
      .insert(toolEditions)
      .values({
        toolId: purchase.toolId,
        name: 'Pro',
        position: 2,
        priceInrPaise: 299_900,
        entitlements: ['ocr', 'batch'],
      })
      .returning({ id: toolEditions.id });
    await t.ctx.db
      .update(licenses)
      .set({ editionId: edition?.id })
      .where(eq(licenses.id, purchase.licenseId));
    const machine = computer();

    const request = await machine.client.createOfflineRequest({
      toolId: purchase.toolId,
      fingerprint: machine.fingerprint,
      name: 'Audit room PC ✓',
    });
    expect(request).toMatch(/^PCA-OFFLINE-1\.[A-Za-z0-9_-]+$/);
    expect(request.length).toBeLessThanOrEqual(1000);
    // The longest request the rules allow still fits: a 128-character fingerprint and 64 four-byte characters.
    const longest = await machine.client.createOfflineRequest({
      toolId: purchase.toolId,
      fingerprint: 'f'.repeat(128),
      name: '😀'.repeat(64),
    });
    expect(longest.length).toBeLessThanOrEqual(1000);
    expect(request).not.toContain(purchase.licenseKey);

    const answered = await upload(browser, purchase.licenseId, `\n  ${request}\n`);
    expect(answered.statusCode).toBe(200);
    expect(answered.headers['content-type']).toMatch(/^application\/json/);
    expect(answered.headers['cache-control']).toBe('no-store');

    const activated = await machine.client.activateOffline(answered.body);
    const end = new Date(t.clock.now().getTime() + 365 * DAY_MS).toISOString();
    expect(activated).toMatchObject({ valid: true, status: 'active', endsAt: end });
    if (!activated.valid) return;
    expect(activated.license.edition).toEqual({ id: edition?.id, name: 'Pro' });
    expect(activated.license.hasEntitlement('ocr')).toBe(true);
    expect(activated.payload).toMatchObject({
      licenseKey: purchase.licenseKey,
      fingerprint: machine.fingerprint,
    });
    expect(await machine.client.checkOfflineLicense({ fingerprint: machine.fingerprint })).toMatchObject({
      valid: true,
      endsAt: end,
    });
    // A license file like any other: the verifier of the license API's files accepts it until its end.
    expect(
      verifyLicenseFile(answered.body, publicKeys, {
        fingerprint: machine.fingerprint,
        toolId: purchase.toolId,
      }),
    ).toMatchObject({ valid: true, payload: { refreshBefore: end } });

    // My Tools lists it as offline, with its name and the file's end.
    const license = await myLicense(browser, purchase.licenseId);
    expect(license?.offlineDays).toBe(365);
    expect(license?.devices).toEqual([
      expect.objectContaining({ name: 'Audit room PC ✓', offlineUntil: end }),
    ]);
  });

  it('refuses a changed byte, another computer’s, another request’s and an ended response, each with its reason', async () => {
    const { purchase, browser } = await buyerWith({ activationLimit: 3 });
    const machine = computer();
    const request = await machine.client.createOfflineRequest({
      toolId: purchase.toolId,
      fingerprint: machine.fingerprint,
    });
    const genuine = (await upload(browser, purchase.licenseId, request)).body;

    const file = JSON.parse(genuine) as { payload: string; signature: string };
    const flipped = (value: string, index: number) => {
      const bytes = Buffer.from(value, 'base64');
      bytes[index] = (bytes[index] ?? 0) ^ 0x01;
      return bytes.toString('base64');
    };
    const changedPayload = JSON.stringify({ ...file, payload: flipped(file.payload, 40) });
    expect(await machine.client.activateOffline(changedPayload)).toMatchObject({
      valid: false,
      reason: 'bad-signature',
      message: 'This response file was changed after the shop signed it.',
    });
    const changedSignature = JSON.stringify({ ...file, signature: flipped(file.signature, 7) });
    expect(await machine.client.activateOffline(changedSignature)).toMatchObject({ reason: 'bad-signature' });

    // The nonce is in the request for anyone to read: a request for another computer that copies it is answered,
    // but that answer names the other computer.
    const other = fingerprint('other');
    const copied = rewritten(request, (content) => {
      content.fingerprint = other;
    });
    const forOther = (await upload(browser, purchase.licenseId, copied)).body;
    expect(await machine.client.activateOffline(forOther)).toMatchObject({
      valid: false,
      reason: 'wrong-fingerprint',
    });

    // Another request (made on another install, for this very machine) is not one this client made.
    const elsewhere = computer();
    const theirs = await elsewhere.client.createOfflineRequest({
      toolId: purchase.toolId,
      fingerprint: machine.fingerprint,
    });
    const forTheirs = (await upload(browser, purchase.licenseId, theirs)).body;
    expect(await machine.client.activateOffline(forTheirs)).toMatchObject({
      valid: false,
      reason: 'unknown-request',
    });
    // A license file from the license API is not a response to a request.
    const apiFile = await activateLicense(t.ctx, {
      licenseKey: purchase.licenseKey ?? '',
      toolId: purchase.toolId,
      fingerprint: machine.fingerprint,
    });
    expect(await machine.client.activateOffline(apiFile.licenseFile ?? '')).toMatchObject({
      reason: 'not-offline',
    });
    expect(await machine.client.checkOfflineLicense()).toMatchObject({ reason: 'not-activated' });

    // The genuine one is taken; on this computer's clock a year and a day later it has ended.
    expect((await machine.client.activateOffline(genuine)).valid).toBe(true);
    const yearOn = new OfflineActivation({
      publicKeys,
      store: machine.store,
      now: () => new Date(t.clock.now().getTime() + 366 * DAY_MS),
    });
    expect(await yearOn.checkOfflineLicense()).toMatchObject({
      valid: false,
      reason: 'expired',
      message: 'This response file has ended: make a new request and bring its response.',
    });
    // Copied to another computer, it does not run there.
    expect(await machine.client.checkOfflineLicense({ fingerprint: other })).toMatchObject({
      reason: 'wrong-fingerprint',
    });
  });

  it('offers the response as a download too', async () => {
    const { purchase, browser } = await buyerWith();
    const machine = computer();
    const request = await machine.client.createOfflineRequest({
      toolId: purchase.toolId,
      fingerprint: machine.fingerprint,
    });
    const response = await upload(browser, purchase.licenseId, request, 'application/octet-stream');
    expect(response.statusCode).toBe(200);
    expect(response.headers['content-type']).toBe('application/octet-stream');
    expect(response.headers['content-disposition']).toMatch(
      /^attachment; filename=".+-activation-response\.json"/,
    );
    expect((await machine.client.activateOffline(response.body)).valid).toBe(true);
  });

  it('holds the device limit across online and offline activations, and 10 uploads at once for one seat get one', async () => {
    const { purchase, browser } = await buyerWith({ activationLimit: 2 });
    const key = { licenseKey: purchase.licenseKey ?? '', toolId: purchase.toolId };
    const onlineMachine = fingerprint('online');
    expect((await activateLicense(t.ctx, { ...key, fingerprint: onlineMachine })).code).toBe('VALID');
    const offline = computer();
    const first = await offline.client.createOfflineRequest({
      toolId: purchase.toolId,
      fingerprint: offline.fingerprint,
    });
    expect((await upload(browser, purchase.licenseId, first)).statusCode).toBe(200);

    // Both seats are taken: a third is refused either way.
    expect(await activateLicense(t.ctx, { ...key, fingerprint: fingerprint('third') })).toMatchObject({
      valid: false,
      code: 'LIMIT_REACHED',
      license: { activationsUsed: 2, activationLimit: 2 },
    });
    const third = computer();
    const refused = await upload(
      browser,
      purchase.licenseId,
      await third.client.createOfflineRequest({ toolId: purchase.toolId, fingerprint: third.fingerprint }),
    );
    expect(refused.statusCode).toBe(409);
    expect(refused.json()).toMatchObject({
      code: 'LIMIT_REACHED',
      message: OFFLINE_MESSAGES.limitReached(2),
    });
    // The same computer again (a renewal, or the same request twice) keeps its seat.
    expect((await upload(browser, purchase.licenseId, first)).statusCode).toBe(200);

    // One seat free, ten computers' requests at once: exactly one is answered.
    expect((await deactivateLicense(t.ctx, { ...key, fingerprint: onlineMachine })).deactivated).toBe(true);
    const requests = await Promise.all(
      Array.from({ length: 10 }, () => {
        const each = computer();
        return each.client.createOfflineRequest({ toolId: purchase.toolId, fingerprint: each.fingerprint });
      }),
    );
    const answers = await Promise.all(
      requests.map((request) => upload(browser, purchase.licenseId, request)),
    );
    expect(answers.map((answer) => answer.statusCode).sort()).toEqual([200, ...Array(9).fill(409)]);
    expect(answers.filter((answer) => answer.statusCode === 409).map((answer) => answer.json().code)).toEqual(
      Array(9).fill('LIMIT_REACHED'),
    );
    expect((await myLicense(browser, purchase.licenseId))?.devices).toHaveLength(2);
  });

  it('frees the seat with the deactivation code once, outside the allowance; refuses a used, another’s and a forged code', async () => {
    const { purchase, browser } = await buyerWith({ activationLimit: 3 });
    const machine = computer();
    const request = await machine.client.createOfflineRequest({
      toolId: purchase.toolId,
      fingerprint: machine.fingerprint,
      name: 'Factory PC',
    });
    const response = (await upload(browser, purchase.licenseId, request)).body;
    expect((await machine.client.activateOffline(response)).valid).toBe(true);

    // Another buyer's computer, with its own code.
    const stranger = await buyerWith();
    const theirs = computer();
    const theirResponse = (
      await upload(
        stranger.browser,
        stranger.purchase.licenseId,
        await theirs.client.createOfflineRequest({
          toolId: stranger.purchase.toolId,
          fingerprint: theirs.fingerprint,
        }),
      )
    ).body;
    expect((await theirs.client.activateOffline(theirResponse)).valid).toBe(true);
    const theirCode = await theirs.client.deactivateOffline();

    const code = await machine.client.deactivateOffline();
    expect(code).toMatch(/^[0-9A-HJKMNP-TV-Z]{4}(-[0-9A-HJKMNP-TV-Z]{4}){3}$/);
    // The server makes the same code from what it signed.
    const { offline, activationId } = payloadOf(response);
    expect(deactivationCodeOf(offline.deactivationKey, activationId)).toBe(code.replaceAll('-', ''));
    // The file is gone from the computer.
    expect(await machine.client.checkOfflineLicense()).toMatchObject({ reason: 'not-activated' });

    const forged = await freeWithCode(browser, purchase.licenseId, 'ABCD-EFGH-JKMN-PQRS');
    expect(forged.statusCode).toBe(400);
    expect(forged.json()).toMatchObject({ message: OFFLINE_MESSAGES.codeUnknown });
    const another = await freeWithCode(browser, purchase.licenseId, theirCode);
    expect(another.json()).toMatchObject({ message: OFFLINE_MESSAGES.codeUnknown });
    const malformed = await freeWithCode(browser, purchase.licenseId, 'not a code');
    expect(malformed.json()).toMatchObject({ fieldErrors: { code: OFFLINE_MESSAGES.codeMalformed } });
    // Nobody else frees this license's computers, even with the right code.
    const notTheirs = await freeWithCode(stranger.browser, purchase.licenseId, code);
    expect(notTheirs.statusCode).toBe(404);
    expect((await myLicense(browser, purchase.licenseId))?.devices).toHaveLength(1);

    // Typed the way people type: lower case, spaces, an O for a 0.
    const typed = code.toLowerCase().replaceAll('-', ' ').replaceAll('0', 'o');
    const freed = await freeWithCode(browser, purchase.licenseId, typed);
    expect(freed.statusCode).toBe(200);
    expect(freed.json()).toEqual({
      status: 'success',
      message: OFFLINE_MESSAGES.codeAccepted('Factory PC'),
      selfDeactivationsLeft: 3,
    });
    const after = await myLicense(browser, purchase.licenseId);
    expect(after).toMatchObject({ devices: [], selfDeactivationsLeft: 3 });

    const again = await freeWithCode(browser, purchase.licenseId, code);
    expect(again.statusCode).toBe(400);
    expect(again.json()).toMatchObject({ message: OFFLINE_MESSAGES.codeUsed });
  });

  it('one trial per machine: a computer that had the trial is refused TRIAL_USED, and a trial’s file ends with it', async () => {
    const [tool] = await t.ctx.db
      .insert(tools)
      .values({
        name: `Offline trial tool ${fingerprint('tool')}`,
        description: 'A tool with a trial.',
        device: 'Windows',
        priceInrPaise: 99_900,
        trialDays: 14,
      })
      .returning({ id: tools.id });
    const toolId = tool?.id ?? '';
    const trialOf = async () => {
      const { purchase } = await buyerWith();
      const browser = await loginAs(t, { id: purchase.userId });
      expect((await browser.post('/api/trials/', { toolId })).statusCode).toBe(200);
      const license = ((await browser.get('/api/my-licenses/')).json() as MyLicense[]).find(
        (each) => each.toolId === toolId,
      );
      return { browser, licenseId: license?.licenseId ?? '', expiresAt: license?.expiresAt };
    };
    const machine = computer();
    const first = await trialOf();
    const answered = await upload(
      first.browser,
      first.licenseId,
      await machine.client.createOfflineRequest({ toolId, fingerprint: machine.fingerprint }),
    );
    expect(answered.statusCode).toBe(200);
    const activated = await machine.client.activateOffline(answered.body);
    expect(activated).toMatchObject({ valid: true, status: 'trial', endsAt: first.expiresAt });

    const second = await trialOf();
    const refused = await upload(
      second.browser,
      second.licenseId,
      await machine.client.createOfflineRequest({ toolId, fingerprint: machine.fingerprint }),
    );
    expect(refused.statusCode).toBe(409);
    expect(refused.json()).toMatchObject({ code: 'TRIAL_USED', message: OFFLINE_MESSAGES.trialUsed });
  });

  it('refuses a floating tool, another tool’s request, another person’s license and what is not a request; nothing changes', async () => {
    const { purchase, browser } = await buyerWith();
    const machine = computer();
    const request = await machine.client.createOfflineRequest({
      toolId: purchase.toolId,
      fingerprint: machine.fingerprint,
    });
    const refusedWith = async (text: string, status: number, message: string, as = browser) => {
      const response = await upload(as, purchase.licenseId, text);
      expect(response.statusCode).toBe(status);
      expect(response.json().message).toBe(message);
    };
    await refusedWith('', 400, OFFLINE_MESSAGES.requestRequired);
    await refusedWith('hello', 400, OFFLINE_MESSAGES.requestNotOne);
    await refusedWith('x'.repeat(1001), 400, OFFLINE_MESSAGES.requestTooLong);
    await refusedWith(`${request.slice(0, -10)}`, 400, OFFLINE_MESSAGES.requestDamaged);
    await refusedWith(`${request.slice(0, 30)}!${request.slice(30)}`, 400, OFFLINE_MESSAGES.requestDamaged);
    await refusedWith(
      rewritten(request, (content) => {
        content.fingerprint = 'short';
      }),
      400,
      OFFLINE_MESSAGES.requestDamaged,
    );
    const other = await buyerWith();
    await refusedWith(
      rewritten(request, (content) => {
        content.toolId = other.purchase.toolId;
      }),
      409,
      OFFLINE_MESSAGES.wrongTool(
        (await t.ctx.db.select().from(tools).where(eq(tools.id, purchase.toolId)))[0]?.name ?? '',
      ),
    );
    await refusedWith(request, 404, 'License not found.', other.browser);

    await t.ctx.db.update(tools).set({ licenseModel: 'floating' }).where(eq(tools.id, purchase.toolId));
    await refusedWith(request, 409, OFFLINE_MESSAGES.floating);
    expect((await myLicense(browser, purchase.licenseId))?.offlineDays).toBeNull();
    await t.ctx.db.update(tools).set({ licenseModel: 'per-device' }).where(eq(tools.id, purchase.toolId));

    const anonymous = await t.client();
    expect((await upload(anonymous, purchase.licenseId, request)).statusCode).toBe(401);
    expect((await myLicense(browser, purchase.licenseId))?.devices).toEqual([]);
  });

  it('lets a team member activate their own seat’s computer, and not the owner', async () => {
    const { purchase: team, browser: owner } = await buyerWith();
    await t.ctx.db.update(licenses).set({ seats: 3 }).where(eq(licenses.id, team.licenseId));
    await seatMember(t, owner, team.licenseId);
    const [seat] = await t.ctx.db.select().from(licenses).where(eq(licenses.teamLicenseId, team.licenseId));
    const member = await loginAs(t, { id: seat?.holderId ?? '' });
    const machine = computer();
    const request = await machine.client.createOfflineRequest({
      toolId: team.toolId,
      fingerprint: machine.fingerprint,
      name: 'Member laptop',
    });
    expect((await upload(owner, seat?.id ?? '', request)).statusCode).toBe(404);
    const answered = await upload(member, seat?.id ?? '', request);
    expect(answered.statusCode).toBe(200);
    expect((await machine.client.activateOffline(answered.body)).valid).toBe(true);
    expect((await myLicense(member, seat?.id ?? ''))?.devices).toEqual([
      expect.objectContaining({ name: 'Member laptop', offlineUntil: expect.any(String) }),
    ]);
  });

  it('lasts the tool’s offline period, which the operator may shorten', async () => {
    const { purchase, browser } = await buyerWith();
    await t.ctx.db.update(tools).set({ offlineDays: 30 }).where(eq(tools.id, purchase.toolId));
    const machine = computer();
    const response = await upload(
      browser,
      purchase.licenseId,
      await machine.client.createOfflineRequest({
        toolId: purchase.toolId,
        fingerprint: machine.fingerprint,
      }),
    );
    expect(payloadOf(response.body).refreshBefore).toBe(
      new Date(t.clock.now().getTime() + 30 * DAY_MS).toISOString(),
    );
    expect((await myLicense(browser, purchase.licenseId))?.offlineDays).toBe(30);
  });
});
