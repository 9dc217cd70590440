import { mkdtempSync } from 'node:fs';
import { createServer, request as forward, type Server } from 'node:http';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { freePort, type RunningServer, startServer } from '../../../e2e/support/server';
import { openDatabase } from '../../../src/server/db';
import { tools } from '../../../src/server/db/schema/catalogue';
import type { LicenseAnswer as ServerAnswer } from '../../../src/shared/licenses';
import { fingerprint, type LicensedPurchase, licensedPurchase } from '../../../test/support/license-fixtures';
import {
  checkLicenseAtStart,
  type LicenseAnswer,
  LicenseApiError,
  LicenseClient,
  LicenseServerUnreachableError,
  type PublicKey,
  startHeartbeats,
  verifyLicenseFile,
} from './index';

// The client's own types must describe what the server really answers.
const _sameShape: (answer: ServerAnswer) => LicenseAnswer = (answer) => answer;

const DAY_MS = 24 * 60 * 60 * 1000;
let server: RunningServer;
let keyTool: LicensedPurchase;
let accountTool: LicensedPurchase;
let spare: LicensedPurchase;
let roomy: LicensedPurchase;
let floating: LicensedPurchase;
let publicKeys: PublicKey[];

/** The real server process (src/server/main.ts) on a database prepared with two purchases before it starts. */
beforeAll(async () => {
  const dataDir = mkdtempSync(path.join(tmpdir(), 'license-client-'));
  const database = await openDatabase({ pgliteDir: path.join(dataDir, 'pglite') });
  await database.migrate();
  keyTool = await licensedPurchase(database.db);
  accountTool = await licensedPurchase(database.db, { delivery: 'credentials' });
  spare = await licensedPurchase(database.db);
  roomy = await licensedPurchase(database.db, { activationLimit: 10 });
  floating = await licensedPurchase(database.db, { activationLimit: 1 });
  await database.db
    .update(tools)
    .set({ licenseModel: 'floating', heartbeatMinutes: 1 })
    .where(eq(tools.id, floating.toolId));
  await database.close();
  server = await startServer({}, { dataDir });
  publicKeys = await new LicenseClient({ serverUrl: server.url, toolId: keyTool.toolId }).publicKeys();
}, 120_000);
afterAll(() => server?.stop());

const keyOf = (purchase: LicensedPurchase) => ({ licenseKey: purchase.licenseKey ?? '' });
const clientFor = (purchase: LicensedPurchase) =>
  new LicenseClient({ serverUrl: server.url, toolId: purchase.toolId });

describe('LicenseClient against the real server', () => {
  it('activates, validates and deactivates, and the seats follow', async () => {
    const client = clientFor(keyTool);
    const [a, b, c] = [fingerprint('a'), fingerprint('b'), fingerprint('c')];
    const first = await client.activate(keyOf(keyTool), a, 'Laptop');
    expect(first).toMatchObject({ valid: true, code: 'VALID', activation: { name: 'Laptop' } });
    expect((await client.activate(keyOf(keyTool), b)).license?.activationsUsed).toBe(2);
    expect((await client.activate(keyOf(keyTool), c)).code).toBe('LIMIT_REACHED');
    expect((await client.activate(keyOf(keyTool), a)).activation?.id).toBe(first.activation?.id);
    expect(await client.validate(keyOf(keyTool), a)).toMatchObject({ valid: true, code: 'VALID' });
    expect(await client.deactivate(keyOf(keyTool), b)).toMatchObject({
      deactivated: true,
      code: 'NOT_ACTIVATED',
    });
    expect((await client.activate(keyOf(keyTool), c)).code).toBe('VALID');
    expect(
      (await new LicenseClient({ serverUrl: server.url, toolId: spare.toolId }).validate(keyOf(keyTool), a))
        .code,
    ).toBe('WRONG_TOOL');
  });

  it('authenticates a credentials tool with its username and password', async () => {
    const client = clientFor(accountTool);
    const account = { username: accountTool.username ?? '', password: accountTool.password ?? '' };
    const machine = fingerprint();
    expect((await client.activate(account, machine)).code).toBe('VALID');
    expect((await client.validate({ ...account, password: 'not-the-password' }, machine)).code).toBe(
      'INVALID_KEY',
    );
  });

  it('throws LicenseApiError with the field errors for bad input', async () => {
    const error = await clientFor(keyTool)
      .validate(keyOf(keyTool), 'short')
      .catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(LicenseApiError);
    expect(error).toMatchObject({ status: 400, code: 'validation_error' });
    expect(Object.keys((error as LicenseApiError).fieldErrors ?? {})).toEqual(['fingerprint']);
  });

  it('throws LicenseServerUnreachableError when nothing listens', async () => {
    const nowhere = new LicenseClient({
      serverUrl: `http://127.0.0.1:${await freePort()}`,
      toolId: keyTool.toolId,
    });
    await expect(nowhere.validate(keyOf(keyTool), fingerprint())).rejects.toBeInstanceOf(
      LicenseServerUnreachableError,
    );
  });
});

describe('verifyLicenseFile', () => {
  it('accepts the file for its machine and refuses another machine, another tool, a late date and any changed byte', async () => {
    const machine = fingerprint();
    const answer = await clientFor(spare).activate(keyOf(spare), machine);
    const text = answer.licenseFile ?? '';
    const check = verifyLicenseFile(text, publicKeys, { fingerprint: machine, toolId: spare.toolId });
    expect(check).toMatchObject({
      valid: true,
      payload: { licenseKey: spare.licenseKey, fingerprint: machine },
    });
    if (!check.valid) return;

    expect(verifyLicenseFile(text, publicKeys, { fingerprint: fingerprint() })).toMatchObject({
      valid: false,
      reason: 'wrong-fingerprint',
    });
    expect(verifyLicenseFile(text, publicKeys, { fingerprint: machine, toolId: keyTool.toolId }).valid).toBe(
      false,
    );
    const late = new Date(Date.parse(check.payload.refreshBefore) + 1);
    expect(verifyLicenseFile(text, publicKeys, { fingerprint: machine, now: late })).toMatchObject({
      valid: false,
      reason: 'expired',
    });
    expect(verifyLicenseFile(text, [], { fingerprint: machine })).toMatchObject({ reason: 'unknown-key' });

    const file = JSON.parse(text) as { payload: string; signature: string };
    const flip = (value: string, index: number) => {
      const bytes = Buffer.from(value, 'base64');
      bytes[index] = (bytes[index] ?? 0) ^ 0x01;
      return bytes.toString('base64');
    };
    const payloadLength = Buffer.from(file.payload, 'base64').length;
    for (const index of [0, 10, Math.floor(payloadLength / 2), payloadLength - 1]) {
      const changed = JSON.stringify({ ...file, payload: flip(file.payload, index) });
      expect(verifyLicenseFile(changed, publicKeys, { fingerprint: machine }).valid).toBe(false);
    }
    for (const index of [0, 31, 63]) {
      const changed = JSON.stringify({ ...file, signature: flip(file.signature, index) });
      expect(verifyLicenseFile(changed, publicKeys, { fingerprint: machine })).toMatchObject({
        reason: 'bad-signature',
      });
    }
    // A character a lenient base64 decoder would skip still makes the file invalid.
    const sneaky = JSON.stringify({
      ...file,
      payload: `${file.payload.slice(0, 8)}!${file.payload.slice(8)}`,
    });
    expect(verifyLicenseFile(sneaky, publicKeys, { fingerprint: machine })).toMatchObject({
      reason: 'malformed',
    });
  });
});

describe('checkLicenseAtStart', () => {
  /** A machine activated on a license with room for every test here, and its license file as stored. */
  async function setUp() {
    const machine = fingerprint();
    const client = clientFor(roomy);
    const activated = await client.activate(keyOf(roomy), machine);
    const stored: { file: string | undefined } = { file: activated.licenseFile };
    const check = verifyLicenseFile(stored.file ?? '', publicKeys, { fingerprint: machine });
    if (!check.valid) throw new Error(`activation gave no valid file: ${activated.code}`);
    const base = {
      client,
      credentials: keyOf(roomy),
      fingerprint: machine,
      publicKeys,
      storeFile: (text: string | undefined) => {
        stored.file = text;
      },
    };
    const offline = new LicenseClient({
      serverUrl: `http://127.0.0.1:${await freePort()}`,
      toolId: roomy.toolId,
    });
    return { machine, client, offline, stored, base, issuedAt: new Date(check.payload.issuedAt) };
  }

  it('starts from a recent file without the network, refreshes an older one, and rides out an outage', async () => {
    const { offline, stored, base, issuedAt } = await setUp();
    const original = stored.file;

    const recent = await checkLicenseAtStart({
      ...base,
      client: offline,
      storedFile: stored.file,
      now: issuedAt,
    });
    expect(recent).toMatchObject({ start: true, source: 'file', offline: false });

    const eightDaysOn = new Date(issuedAt.getTime() + 8 * DAY_MS);
    const outage = await checkLicenseAtStart({
      ...base,
      client: offline,
      storedFile: stored.file,
      now: eightDaysOn,
    });
    expect(outage).toMatchObject({ start: true, source: 'file', offline: true });
    expect(stored.file).toBe(original);

    const monthOn = new Date(issuedAt.getTime() + 31 * DAY_MS);
    const expired = await checkLicenseAtStart({
      ...base,
      client: offline,
      storedFile: stored.file,
      now: monthOn,
    });
    expect(expired).toMatchObject({ start: false, offline: true });

    const online = await checkLicenseAtStart({
      ...base,
      storedFile: stored.file,
      now: new Date(Date.now() + 8 * DAY_MS),
    });
    expect(online).toMatchObject({ start: true, source: 'server', offline: false });
    expect(stored.file).not.toBe(original);
  });

  it('stops, and forgets the file, when the server says the machine is no longer activated', async () => {
    const { client, machine, stored, base } = await setUp();
    await client.deactivate(keyOf(roomy), machine);
    const later = new Date(Date.now() + 8 * DAY_MS);
    const decision = await checkLicenseAtStart({ ...base, storedFile: stored.file, now: later });
    expect(decision).toMatchObject({ start: false, code: 'NOT_ACTIVATED', offline: false });
    expect(stored.file).toBeUndefined();
  });
});

describe('rate limits', () => {
  it('turns a rate-limited answer into LicenseApiError 429 with Retry-After', async () => {
    const client = clientFor(spare);
    const machine = fingerprint();
    let refusal: unknown;
    for (let i = 0; i < 125 && !refusal; i++) {
      refusal = await client.validate(keyOf(spare), machine).then(
        () => undefined,
        (error: unknown) => error,
      );
    }
    expect(refusal).toBeInstanceOf(LicenseApiError);
    expect(refusal).toMatchObject({ status: 429, code: 'rate_limited' });
    expect((refusal as LicenseApiError).retryAfterSeconds).toBeGreaterThan(0);
  });
});

/** The real server behind a switch: while `down`, every connection is dropped unanswered. */
async function switchableProxy(target: string) {
  const state = { down: false };
  const proxy: Server = createServer((incoming, outgoing) => {
    if (state.down) {
      incoming.socket.destroy();
      return;
    }
    const upstream = forward(
      new URL(incoming.url ?? '/', target),
      { method: incoming.method, headers: incoming.headers },
      (answer) => {
        outgoing.writeHead(answer.statusCode ?? 502, answer.headers);
        answer.pipe(outgoing);
      },
    );
    incoming.pipe(upstream);
  });
  const port = await freePort();
  await new Promise<void>((resolve) => proxy.listen(port, '127.0.0.1', resolve));
  return {
    url: `http://127.0.0.1:${port}`,
    state,
    close: () =>
      new Promise<void>((resolve) => {
        proxy.closeAllConnections();
        proxy.close(() => resolve());
      }),
  };
}

const waitFor = async (check: () => boolean, timeoutMs = 10_000) => {
  const end = Date.now() + timeoutMs;
  while (!check()) {
    if (Date.now() > end) throw new Error('timed out waiting');
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
};

describe('startHeartbeats against the real server', () => {
  it('takes and keeps a floating seat, backs off while the server is down, and frees the seat on stop', async () => {
    const proxy = await switchableProxy(server.url);
    try {
      const client = new LicenseClient({ serverUrl: proxy.url, toolId: floating.toolId, timeoutMs: 2000 });
      const direct = clientFor(floating);
      const [mine, other] = [fingerprint('hb-mine'), fingerprint('hb-other')];
      const leases: LicenseAnswer[] = [];
      const retries: number[] = [];
      const lost: LicenseAnswer[] = [];
      const beats = startHeartbeats(client, {
        credentials: keyOf(floating),
        fingerprint: mine,
        everyMs: 150,
        retryMs: 50,
        maxRetryMs: 400,
        onLease: (answer) => leases.push(answer),
        onError: (_error, retryInMs) => retries.push(retryInMs),
        onLost: (answer) => lost.push(answer),
      });

      // Not activated yet: the first heartbeat activates, the next ones renew the lease.
      await waitFor(() => leases.length >= 3);
      expect(beats.holding).toBe(true);
      expect(leases[0]).toMatchObject({ valid: true, code: 'VALID', heartbeatSeconds: 60 });
      expect(leases[0]?.activation?.fingerprint).toBe(mine);
      expect(Date.parse(leases.at(-1)?.leaseExpiresAt ?? '')).toBeGreaterThanOrEqual(
        Date.parse(leases[0]?.leaseExpiresAt ?? ''),
      );
      // The one seat is held: another machine is told no seat is free.
      expect((await direct.activate(keyOf(floating), other)).code).toBe('LIMIT_REACHED');

      // The server goes away: the waits double up to the cap, and heartbeats resume when it is back.
      proxy.state.down = true;
      await waitFor(() => retries.length >= 4);
      expect(retries.slice(0, 4)).toEqual([50, 100, 200, 400]);
      const before = leases.length;
      proxy.state.down = false;
      await waitFor(() => leases.length > before);
      expect(lost).toEqual([]);

      // A clean exit frees the seat at once, and nothing beats after it.
      const freed = await beats.stop();
      expect(freed).toMatchObject({ code: 'NOT_ACTIVATED', deactivated: true });
      expect(beats.holding).toBe(false);
      const after = leases.length;
      expect((await direct.activate(keyOf(floating), other)).code).toBe('VALID');
      await new Promise((resolve) => setTimeout(resolve, 300));
      expect(leases.length).toBe(after);

      // With the seat taken elsewhere, a machine is told so and stops.
      const refused = startHeartbeats(client, {
        credentials: keyOf(floating),
        fingerprint: mine,
        onLost: (answer) => lost.push(answer),
      });
      await waitFor(() => lost.length === 1);
      expect(lost[0]?.code).toBe('LIMIT_REACHED');
      expect(refused.holding).toBe(false);
      expect(await refused.stop()).toBeUndefined();
    } finally {
      await proxy.close();
    }
  }, 60_000);
});
