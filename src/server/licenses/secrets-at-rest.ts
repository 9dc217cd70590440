import { timingSafeEqual } from 'node:crypto';
import { and, eq, isNotNull, not, or, sql } from 'drizzle-orm';
import type { LicenseCredentials } from '../../shared/licenses';
import type { Database } from '../db';
import { licenses } from '../db/schema/licenses';
import type { DataSecrets } from '../kernel/data-secrets';

/**
 * A license's secrets as they are kept (decision 032): the key and the credentials' password each as a keyed hash
 * (to recognise them) and sealed (to show or re-send them); the username as it is.
 */
const KEY = 'licenses.license_key';
const PASSWORD = 'licenses.password';

type StoredSecret = {
  licenseKeyHash: string | null;
  licenseKeySealed: string | null;
  username: string | null;
  passwordHash: string | null;
  passwordSealed: string | null;
};

/** The columns a new license's secret is written to. */
export function storedSecret(secrets: DataSecrets, secret: LicenseCredentials): StoredSecret {
  if ('licenseKey' in secret) {
    return {
      licenseKeyHash: secrets.lookupHash(KEY, secret.licenseKey),
      licenseKeySealed: secrets.seal(KEY, secret.licenseKey),
      username: null,
      passwordHash: null,
      passwordSealed: null,
    };
  }
  return {
    licenseKeyHash: null,
    licenseKeySealed: null,
    username: secret.username,
    passwordHash: secrets.lookupHash(PASSWORD, secret.password),
    passwordSealed: secrets.seal(PASSWORD, secret.password),
  };
}

/** The hashes a license key may be stored under (current key first, then keys being rotated out). */
export const licenseKeyHashes = (secrets: DataSecrets, licenseKey: string) =>
  secrets.lookupHashes(KEY, licenseKey);

/** Whether `password` is the one stored as `passwordHash` (under any configured key), compared in constant time. */
export function passwordMatches(secrets: DataSecrets, passwordHash: string, password: string): boolean {
  return secrets.lookupHashes(PASSWORD, password).some((candidate) => sameHex(candidate, passwordHash));
}

function sameHex(a: string, b: string): boolean {
  const left = Buffer.from(a, 'hex');
  const right = Buffer.from(b, 'hex');
  return left.length === right.length && timingSafeEqual(left, right);
}

/** The license key to show (My Tools, the operator) or put in a license file; null for a credentials tool. */
export function revealLicenseKey(
  secrets: DataSecrets,
  row: { licenseKeySealed: string | null },
): string | null {
  return row.licenseKeySealed === null ? null : secrets.open(KEY, row.licenseKeySealed);
}

/** The secret to re-send ("Get Credentials", the operator's resend). */
export function revealSecret(
  secrets: DataSecrets,
  row: { licenseKeySealed: string | null; username: string | null; passwordSealed: string | null },
): LicenseCredentials {
  if (row.licenseKeySealed !== null) return { licenseKey: secrets.open(KEY, row.licenseKeySealed) };
  if (row.username !== null && row.passwordSealed !== null)
    return { username: row.username, password: secrets.open(PASSWORD, row.passwordSealed) };
  throw new Error('license row has neither a key nor credentials');
}

/** The credentials' password to show the operator; null for a license-key tool. */
export function revealPassword(secrets: DataSecrets, row: { passwordSealed: string | null }): string | null {
  return row.passwordSealed === null ? null : secrets.open(PASSWORD, row.passwordSealed);
}

const BATCH = 200;

/**
 * Brings every license row to the current key, in batches: a row still holding its key or password in clear
 * (written before decision 032) gets them hashed and sealed and the plain columns nulled; a row sealed under a
 * previous key (`DATA_PREVIOUS_SECRET_KEYS`) is re-hashed and re-sealed. Idempotent: run at every start. Returns
 * how many rows it changed.
 */
export async function sealLicenseSecrets(db: Database, secrets: DataSecrets): Promise<number> {
  const current = `${secrets.currentPrefix}%`;
  const stale = or(
    isNotNull(licenses.plainLicenseKey),
    isNotNull(licenses.plainPassword),
    and(isNotNull(licenses.licenseKeySealed), not(sql`${licenses.licenseKeySealed} like ${current}`)),
    and(isNotNull(licenses.passwordSealed), not(sql`${licenses.passwordSealed} like ${current}`)),
  );
  let changed = 0;
  for (;;) {
    const rows = await db.select().from(licenses).where(stale).orderBy(licenses.id).limit(BATCH);
    if (rows.length === 0) return changed;
    for (const row of rows) {
      const secret = plainSecretOf(secrets, row);
      await db
        .update(licenses)
        .set({ ...storedSecret(secrets, secret), plainLicenseKey: null, plainPassword: null })
        .where(eq(licenses.id, row.id));
    }
    changed += rows.length;
  }
}

function plainSecretOf(secrets: DataSecrets, row: typeof licenses.$inferSelect): LicenseCredentials {
  if (row.plainLicenseKey !== null) return { licenseKey: row.plainLicenseKey };
  if (row.username !== null && row.plainPassword !== null)
    return { username: row.username, password: row.plainPassword };
  return revealSecret(secrets, row);
}
