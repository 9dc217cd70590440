import { createHash, type KeyObject } from 'node:crypto';

/** A key id anyone can recompute from the public key alone: base64url of the SPKI DER's SHA-256, 16 characters. */
export function keyId(publicKey: KeyObject): string {
  const der = publicKey.export({ format: 'der', type: 'spki' });
  return createHash('sha256').update(der).digest('base64url').slice(0, 16);
}
