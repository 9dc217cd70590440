import { createPrivateKey, createPublicKey, type KeyObject, sign, verify } from 'node:crypto';
import type { Config } from '../kernel/config';
import { keyId } from '../kernel/key-id';
import { developmentSigningKey } from '../licenses/signing';

/** The SPKI DER of an Ed25519 key is this fixed prefix followed by the raw 32-byte public key. */
const ED25519_SPKI_PREFIX_LENGTH = 12;

export type ReleasePublicKey = {
  kid: string;
  /** SPKI PEM, what the reference client and any Ed25519 verifier take. */
  publicKey: string;
  /** The base64 of the raw 32-byte key: Sparkle's SUPublicEDKey, WinSparkle's win_sparkle_set_eddsa_public_key. */
  sparklePublicEdKey: string;
};

export type ReleaseSigner = ReleasePublicKey & {
  /** Base64 Ed25519 signature over the whole file (Ed25519 has no prehash: the message is the bytes). */
  sign(bytes: Uint8Array): string;
  /** Whether `signature` is one of ours (current or earlier key `kid`) over `bytes`. */
  verify(kid: string, bytes: Uint8Array, signature: string): boolean;
  /** The current key first, then every earlier key still honoured (RELEASE_PREVIOUS_PUBLIC_KEYS). */
  published: ReleasePublicKey[];
};

function publicKeyOf(key: KeyObject): ReleasePublicKey {
  const der = key.export({ format: 'der', type: 'spki' });
  return {
    kid: keyId(key),
    publicKey: key.export({ format: 'pem', type: 'spki' }).toString(),
    sparklePublicEdKey: der.subarray(ED25519_SPKI_PREFIX_LENGTH).toString('base64'),
  };
}

/**
 * The release signing key (RELEASE_SIGNING_KEY, decision 034), kept apart from the license-file key so each can
 * be rotated alone; rotation works the same way: the old public key goes into RELEASE_PREVIOUS_PUBLIC_KEYS.
 */
export function createReleaseSigner(config: Config): ReleaseSigner {
  const privateKey = createPrivateKey(
    config.releaseSigning.privateKeyPem ?? developmentSigningKey(config.dataDir, 'release-signing-key.pem'),
  );
  const current = createPublicKey(privateKey);
  const byKid = new Map<string, KeyObject>([[keyId(current), current]]);
  for (const pem of config.releaseSigning.previousPublicKeyPems) {
    const previous = createPublicKey(pem);
    if (!byKid.has(keyId(previous))) byKid.set(keyId(previous), previous);
  }
  return {
    ...publicKeyOf(current),
    sign: (bytes) => sign(null, bytes, privateKey).toString('base64'),
    verify(kid, bytes, signature) {
      const key = byKid.get(kid);
      return key !== undefined && verify(null, bytes, key, Buffer.from(signature, 'base64'));
    },
    published: [...byKid.values()].map(publicKeyOf),
  };
}

declare module '../kernel/context' {
  interface AppContext {
    /** The release signing key and the earlier ones still honoured: read or generated once, by compose.ts. */
    releaseSigning: ReleaseSigner;
  }
}
