import { createPublicKey, generateKeyPairSync, verify } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { testConfig } from '../../../test/support/app';
import { createReleaseSigner } from './signing';

const pem = (key: import('node:crypto').KeyObject, type: 'pkcs8' | 'spki') =>
  key.export({ format: 'pem', type }).toString();

describe('the release signing key', () => {
  it('signs a file’s bytes so that the Sparkle public key (raw 32 bytes) verifies them, and nothing else', () => {
    const signer = createReleaseSigner(testConfig());
    const bytes = Buffer.from('an update archive');
    const signature = Buffer.from(signer.sign(bytes), 'base64');
    const raw = Buffer.from(signer.sparklePublicEdKey, 'base64');
    expect(raw).toHaveLength(32);
    // The raw key as Sparkle holds it, turned back into a key through JWK, not through our code.
    const sparkleKey = createPublicKey({
      key: { kty: 'OKP', crv: 'Ed25519', x: raw.toString('base64url') },
      format: 'jwk',
    });
    expect(verify(null, bytes, sparkleKey, signature)).toBe(true);
    const flipped = Buffer.from(bytes);
    flipped[0] = (flipped[0] ?? 0) ^ 1;
    expect(verify(null, flipped, sparkleKey, signature)).toBe(false);
    expect(pem(sparkleKey, 'spki')).toBe(signer.publicKey);
  });

  it('keeps verifying what an earlier key signed after a rotation', () => {
    const oldKey = generateKeyPairSync('ed25519');
    const newKey = generateKeyPairSync('ed25519');
    const before = createReleaseSigner(testConfig({ RELEASE_SIGNING_KEY: pem(oldKey.privateKey, 'pkcs8') }));
    const signature = before.sign(Buffer.from('1.0.0'));
    const after = createReleaseSigner(
      testConfig({
        RELEASE_SIGNING_KEY: pem(newKey.privateKey, 'pkcs8'),
        RELEASE_PREVIOUS_PUBLIC_KEYS: pem(oldKey.publicKey, 'spki'),
      }),
    );
    expect(after.kid).not.toBe(before.kid);
    expect(after.published.map((key) => key.kid)).toEqual([after.kid, before.kid]);
    expect(after.verify(before.kid, Buffer.from('1.0.0'), signature)).toBe(true);
    expect(after.verify(before.kid, Buffer.from('1.0.1'), signature)).toBe(false);
    expect(
      createReleaseSigner(testConfig({ RELEASE_SIGNING_KEY: pem(newKey.privateKey, 'pkcs8') })).verify(
        before.kid,
        Buffer.from('1.0.0'),
        signature,
      ),
    ).toBe(false);
  });
});
