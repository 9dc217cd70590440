import { createCipheriv, createDecipheriv, createHmac, hkdfSync, randomBytes } from 'node:crypto';
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import type { Config } from './config';

/**
 * Secrets at rest (decision 032): what must only be recognised is stored as a keyed hash (HMAC-SHA256), what must be
 * shown or re-sent again is sealed (AES-256-GCM). Both keys are derived from `DATA_SECRET_KEY`, so a database dump
 * or a stolen backup without it holds neither in clear.
 *
 * Every value is bound to its purpose (the column it lives in): a sealed value copied into another column does not
 * open, and equal secrets in two columns hash differently.
 */
export type DataSecrets = {
  /** The keyed hash a secret is looked up by, under the current key (hex). */
  lookupHash(purpose: string, value: string): string;
  /** The same under every configured key, current first: a look-up also finds rows not yet re-hashed after a rotation. */
  lookupHashes(purpose: string, value: string): string[];
  /** `v1:<key id>:<base64url of nonce, ciphertext and tag>`, under the current key. */
  seal(purpose: string, value: string): string;
  /** Opens a value sealed under the current key or a previous one; throws on anything else. */
  open(purpose: string, sealed: string): string;
  /** The prefix of values sealed under the current key: anything else is re-sealed at start (rotation). */
  readonly currentPrefix: string;
};

const FORMAT = 'v1';
const NONCE_BYTES = 12;
const TAG_BYTES = 16;

type DerivedKeys = { id: string; hashKey: Buffer; sealKey: Buffer };

function derive(master: Buffer): DerivedKeys {
  const part = (info: string) => Buffer.from(hkdfSync('sha256', master, Buffer.alloc(0), info, 32));
  return {
    id: part('pinkcity data key id').toString('hex').slice(0, 8),
    hashKey: part('pinkcity lookup hash v1'),
    sealKey: part('pinkcity seal v1'),
  };
}

const hmac = (keys: DerivedKeys, purpose: string, value: string) =>
  createHmac('sha256', keys.hashKey).update(`${purpose}\0${value}`).digest('hex');

/** Like the license signing key: a development install uses a key generated once into DATA_DIR. */
function developmentKey(dataDir: string): Buffer {
  const file = path.join(dataDir, 'data-secret-key');
  try {
    return Buffer.from(readFileSync(file, 'utf8').trim(), 'hex');
  } catch {
    mkdirSync(dataDir, { recursive: true });
    const key = randomBytes(32);
    try {
      writeFileSync(file, key.toString('hex'), { mode: 0o600, flag: 'wx' });
      return key;
    } catch (error) {
      // Another process (the admin command line, a second server) wrote it first: use theirs.
      if ((error as NodeJS.ErrnoException).code === 'EEXIST')
        return Buffer.from(readFileSync(file, 'utf8').trim(), 'hex');
      throw error;
    }
  }
}

/** From `DATA_SECRET_KEY` (32 bytes) and the keys it replaced (`DATA_PREVIOUS_SECRET_KEYS`). */
export function createDataSecrets(config: Pick<Config, 'dataSecret' | 'dataDir'>): DataSecrets {
  const current = derive(config.dataSecret.key ?? developmentKey(config.dataDir));
  const all = [current, ...config.dataSecret.previousKeys.map(derive)];
  const byId = new Map(all.map((keys) => [keys.id, keys]));
  return {
    currentPrefix: `${FORMAT}:${current.id}:`,
    lookupHash: (purpose, value) => hmac(current, purpose, value),
    lookupHashes: (purpose, value) => all.map((keys) => hmac(keys, purpose, value)),
    seal(purpose, value) {
      const nonce = randomBytes(NONCE_BYTES);
      const cipher = createCipheriv('aes-256-gcm', current.sealKey, nonce);
      cipher.setAAD(Buffer.from(purpose));
      const body = Buffer.concat([nonce, cipher.update(value, 'utf8'), cipher.final(), cipher.getAuthTag()]);
      return `${FORMAT}:${current.id}:${body.toString('base64url')}`;
    },
    open(purpose, sealed) {
      const [format, id, encoded] = sealed.split(':');
      const keys = byId.get(id ?? '');
      if (format !== FORMAT || !keys || encoded === undefined) {
        throw new Error(`sealed value under an unknown key (${format}:${id}); is DATA_SECRET_KEY right?`);
      }
      const body = Buffer.from(encoded, 'base64url');
      const decipher = createDecipheriv('aes-256-gcm', keys.sealKey, body.subarray(0, NONCE_BYTES));
      decipher.setAAD(Buffer.from(purpose));
      decipher.setAuthTag(body.subarray(body.length - TAG_BYTES));
      const text = decipher.update(body.subarray(NONCE_BYTES, body.length - TAG_BYTES));
      return Buffer.concat([text, decipher.final()]).toString('utf8');
    },
  };
}
