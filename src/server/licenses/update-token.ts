import type { DataSecrets } from '../data-secrets';

/**
 * The secret in an activation's update-feed URLs (`/api/updates/<token>/`, docs/updates.md). It is derived from the
 * activation id with the data key, so activating the same machine again gives the same URLs without the token ever
 * being stored; the database holds only its keyed hash (`license_activations.update_token_hash`), which is how a feed
 * request finds its activation. It dies with the activation or the license: the feeds check both on every request.
 */
export function updateTokenOf(secrets: DataSecrets, activationId: string): string {
  return Buffer.from(secrets.lookupHash('update-token', activationId), 'hex').toString('base64url');
}

/** 32 bytes in base64url: anything else is not a token and is refused before the database is asked. */
export const UPDATE_TOKEN_PATTERN = /^[\w-]{43}$/;

export const updateTokenHash = (secrets: DataSecrets, token: string) =>
  secrets.lookupHash('update-token-hash', token);

/** Every key's hash of the token: a token handed out before a DATA_SECRET_KEY rotation still finds its row. */
export const updateTokenHashes = (secrets: DataSecrets, token: string) =>
  secrets.lookupHashes('update-token-hash', token);

/** The feed URLs an activate answer carries. Velopack's UpdateManager takes the folder and appends the file names. */
export function updateUrlsOf(publicUrl: string, token: string) {
  const base = `${publicUrl}/api/updates/${token}/`;
  return { appcastUrl: `${base}appcast.xml`, velopackUrl: base };
}
