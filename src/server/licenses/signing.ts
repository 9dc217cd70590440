import {
  createPrivateKey,
  createPublicKey,
  generateKeyPairSync,
  type KeyObject,
  sign,
  verify,
} from 'node:crypto';
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { sql } from 'drizzle-orm';
import type { LicenseFile, PublicKeysResponse } from '../../shared/licenses';
import type { DbOrTx } from '../db';
import { licenseSigningKeys } from '../db/schema/licenses';
import type { Config } from '../kernel/config';
import { keyId } from '../kernel/key-id';

export type SigningKeys = {
  kid: string;
  sign(payload: Buffer): Buffer;
  /** The current key first, then every earlier key still honoured. */
  published: PublicKeysResponse['keys'];
  /** For tests and the operator: checks a file against the published keys. */
  verify(file: LicenseFile): boolean;
};

declare module '../kernel/context' {
  interface AppContext {
    /** The Ed25519 key that signs offline license files, and the public keys that still verify them. */
    licenseSigning: SigningKeys;
  }
}

/**
 * Like the session secret: a development install signs with a key generated once into DATA_DIR (`fileName` there:
 * license files and releases each have their own).
 */
export function developmentSigningKey(dataDir: string, fileName = 'license-signing-key.pem'): string {
  const file = path.join(dataDir, fileName);
  try {
    return readFileSync(file, 'utf8');
  } catch {
    mkdirSync(dataDir, { recursive: true });
    const pem = generateKeyPairSync('ed25519').privateKey.export({ format: 'pem', type: 'pkcs8' }).toString();
    try {
      writeFileSync(file, pem, { mode: 0o600, flag: 'wx' });
      return pem;
    } catch (error) {
      // Another process (the admin command line, a second server) wrote it first: use theirs.
      if ((error as NodeJS.ErrnoException).code === 'EEXIST') return readFileSync(file, 'utf8');
      throw error;
    }
  }
}

/**
 * The Ed25519 key that signs license files, and the public keys that verify them. A rotation moves the old
 * public key into LICENSE_PREVIOUS_PUBLIC_KEYS, so files it signed keep verifying until their refreshBefore.
 */
export function createSigningKeys(config: Config): SigningKeys {
  const privateKey = createPrivateKey(
    config.licenseSigning.privateKeyPem ?? developmentSigningKey(config.dataDir),
  );
  const publicKey = createPublicKey(privateKey);
  const kid = keyId(publicKey);
  const byKid = new Map<string, KeyObject>([[kid, publicKey]]);
  for (const pem of config.licenseSigning.previousPublicKeyPems) {
    const previous = createPublicKey(pem);
    if (!byKid.has(keyId(previous))) byKid.set(keyId(previous), previous);
  }
  return {
    kid,
    sign: (payload) => sign(null, payload, privateKey),
    published: [...byKid].map(([id, key]) => ({
      kid: id,
      publicKey: key.export({ format: 'pem', type: 'spki' }).toString(),
    })),
    verify(file) {
      const key = byKid.get(file.kid);
      if (!key) return false;
      return verify(null, Buffer.from(file.payload, 'base64'), key, Buffer.from(file.signature, 'base64'));
    },
  };
}

/**
 * Notes in the database that the shop signs licenses with `kid` as of `now` (at every start), so a snapshot names
 * the key its licenses need and a restore can refuse another one (db/backup.ts).
 */
export async function recordLicenseSigningKey(db: DbOrTx, kid: string, now: Date): Promise<void> {
  await db
    .insert(licenseSigningKeys)
    .values({ kid, firstUsedAt: now, lastUsedAt: now })
    .onConflictDoUpdate({
      target: licenseSigningKeys.kid,
      set: { lastUsedAt: sql`greatest(${licenseSigningKeys.lastUsedAt}, excluded.last_used_at)` },
    });
}
