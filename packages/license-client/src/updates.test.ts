import { createHash, generateKeyPairSync, sign } from 'node:crypto';
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type RunningServer, startServer } from '../../../e2e/support/server';
import { openDatabase } from '../../../src/server/db';
import { keyId } from '../../../src/server/kernel/key-id';
import { createLocalStorage } from '../../../src/server/storage';
import type { UpdateCheckAnswer as ServerUpdateAnswer } from '../../../src/shared/licenses';
import { fingerprint, type LicensedPurchase, licensedPurchase } from '../../../test/support/license-fixtures';
import { addRelease } from '../../../test/support/release-fixtures';
import { LicenseClient, type ReleaseKey, type UpdateCheckAnswer, UpdateVerificationError } from './index';

// The client's own types must describe what the server really answers.
const _sameShape: (answer: ServerUpdateAnswer) => UpdateCheckAnswer = (answer) => answer;

/** The release key the server runs with, so the fixtures' files carry its real signatures. */
const releaseKey = generateKeyPairSync('ed25519');
const releaseKid = keyId(releaseKey.publicKey);
const signer = {
  kid: releaseKid,
  sign: (bytes: Uint8Array) => sign(null, bytes, releaseKey.privateKey).toString('base64'),
};

let server: RunningServer;
let purchase: LicensedPurchase;
let tampered: LicensedPurchase;
let unsigned: LicensedPurchase;
let workDir: string;
const installerBytes = Buffer.from(`PDF Toolkit 1.1.0 installer ${'•'.repeat(5000)}`);

/** The real server on a database holding three tools with releases: one sound, one whose file was altered in storage, one signed by another key. */
beforeAll(async () => {
  workDir = mkdtempSync(path.join(tmpdir(), 'license-client-updates-'));
  const dataDir = path.join(workDir, 'data');
  const database = await openDatabase({ pgliteDir: path.join(dataDir, 'pglite') });
  await database.migrate();
  const target = { db: database.db, storage: createLocalStorage(path.join(dataDir, 'files')) };
  const installer = {
    platform: 'windows' as const,
    kind: 'installer' as const,
    fileName: 'PdfToolkit-1.1.0-setup.exe',
    content: installerBytes,
  };
  purchase = await licensedPurchase(database.db);
  await addRelease(target, { toolId: purchase.toolId, version: '1.1.0', artifacts: [installer] }, signer);
  await addRelease(
    target,
    { toolId: purchase.toolId, version: '1.2.0', state: 'draft', artifacts: [installer] },
    signer,
  );

  tampered = await licensedPurchase(database.db);
  const altered = await addRelease(
    target,
    { toolId: tampered.toolId, version: '1.1.0', artifacts: [installer] },
    signer,
  );
  const stored = path.join(dataDir, 'files', ...(altered.artifacts[0]?.storageKey ?? '').split('/'));
  const flipped = Buffer.from(installerBytes);
  flipped[100] = (flipped[100] ?? 0) ^ 0xff;
  writeFileSync(stored, flipped);

  unsigned = await licensedPurchase(database.db);
  const stranger = generateKeyPairSync('ed25519').privateKey;
  await addRelease(
    target,
    { toolId: unsigned.toolId, version: '1.1.0', artifacts: [installer] },
    {
      kid: releaseKid,
      sign: (bytes) => sign(null, bytes, stranger).toString('base64'),
    },
  );
  await database.close();

  server = await startServer(
    { RELEASE_SIGNING_KEY: releaseKey.privateKey.export({ format: 'pem', type: 'pkcs8' }).toString() },
    { dataDir },
  );
}, 120_000);
afterAll(async () => {
  await server?.stop();
  rmSync(workDir, { recursive: true, force: true });
});

const keyOf = (bought: LicensedPurchase) => ({ licenseKey: bought.licenseKey ?? '' });
const windows = { platform: 'windows', arch: 'x64', version: '1.0.0' } as const;

async function updateOf(bought: LicensedPurchase) {
  const client = new LicenseClient({ serverUrl: server.url, toolId: bought.toolId });
  const machine = fingerprint();
  expect((await client.activate(keyOf(bought), machine)).code).toBe('VALID');
  const answer = await client.checkForUpdate(keyOf(bought), machine, windows);
  if (!answer.update) throw new Error(`no update: ${JSON.stringify(answer)}`);
  return { client, update: answer.update, keys: await client.releasePublicKeys() };
}

describe('LicenseClient updates against the real server', () => {
  it('finds the newest published release and downloads it only after checking size, SHA-256 and signature', async () => {
    const { client, update, keys } = await updateOf(purchase);
    expect(update).toMatchObject({ version: '1.1.0', channel: 'stable', critical: false });
    expect(keys[0]?.publicKey).toBe(releaseKey.publicKey.export({ format: 'pem', type: 'spki' }).toString());

    const destination = path.join(workDir, 'sound-setup.exe');
    await client.downloadUpdate(update.artifact, destination, keys);
    expect(readFileSync(destination)).toEqual(installerBytes);
    expect(createHash('sha256').update(readFileSync(destination)).digest('hex')).toBe(update.artifact.sha256);

    const upToDate = await client.checkForUpdate(keyOf(purchase), fingerprint(), {
      ...windows,
      version: '1.1.0',
    });
    expect(upToDate).toEqual({ valid: false, code: 'NOT_ACTIVATED', update: null, renewal: null });
  });

  it('refuses a file altered in storage and leaves nothing on disk', async () => {
    const { client, update, keys } = await updateOf(tampered);
    const destination = path.join(workDir, 'tampered-setup.exe');
    const refused = await client
      .downloadUpdate(update.artifact, destination, keys)
      .catch((error: unknown) => error);
    expect(refused).toBeInstanceOf(UpdateVerificationError);
    expect((refused as UpdateVerificationError).reason).toBe('sha256');
    expect(existsSync(destination) || existsSync(`${destination}.partial`)).toBe(false);
  });

  it('refuses a file whose signature is not the release key’s', async () => {
    const { client, update, keys } = await updateOf(unsigned);
    const destination = path.join(workDir, 'unsigned-setup.exe');
    const refused = await client
      .downloadUpdate(update.artifact, destination, keys)
      .catch((error: unknown) => error);
    expect((refused as UpdateVerificationError).reason).toBe('signature');
    expect(existsSync(destination)).toBe(false);
    // Nor is a file signed by a key the tool does not ship accepted.
    const unknownKeys: ReleaseKey[] = [{ kid: 'other', publicKey: keys[0]?.publicKey ?? '' }];
    const sound = await updateOf(purchase);
    const refusedKey = await sound.client
      .downloadUpdate(sound.update.artifact, destination, unknownKeys)
      .catch((error: unknown) => error);
    expect((refusedKey as UpdateVerificationError).reason).toBe('signature');
  });
});
