import { randomInt } from 'node:crypto';
import { and, eq, isNull } from 'drizzle-orm';
import type { LicenseCredentials } from '../../shared/licenses';
import type { Tx } from '../db';
import type { tools } from '../db/schema/catalogue';
import { licenses } from '../db/schema/licenses';
import type { AppContext } from '../kernel/context';
import { storedSecret } from './secrets-at-rest';

/** No 0/O, 1/I/L: a key read aloud or copied from a printout cannot be mistyped into another valid key. */
export const LICENSE_ALPHABET = '23456789ABCDEFGHJKMNPQRSTUVWXYZ';
const GROUPS = 4;
const GROUP_LENGTH = 5;

/** The shape of every license key: XXXXX-XXXXX-XXXXX-XXXXX over the unambiguous alphabet. */
export const LICENSE_KEY_PATTERN = new RegExp(
  `^[${LICENSE_ALPHABET}]{${GROUP_LENGTH}}(-[${LICENSE_ALPHABET}]{${GROUP_LENGTH}}){${GROUPS - 1}}$`,
);

function randomString(alphabet: string, length: number): string {
  let out = '';
  for (let i = 0; i < length; i++) out += alphabet.charAt(randomInt(alphabet.length));
  return out;
}

/** 20 characters from a 31-letter alphabet, crypto-random: about 99 bits, so guessing one is hopeless. */
export function generateLicenseKey(): string {
  return Array.from({ length: GROUPS }, () => randomString(LICENSE_ALPHABET, GROUP_LENGTH)).join('-');
}

const USERNAME_ALPHABET = '23456789abcdefghjkmnpqrstuvwxyz';
const PASSWORD_ALPHABET = `${LICENSE_ALPHABET}abcdefghjkmnpqrstuvwxyz`;

/** Sign-in details for a tool delivered as an account rather than a key. */
export function generateCredentials(): { username: string; password: string } {
  return {
    username: `pca-${randomString(USERNAME_ALPHABET, 8)}`,
    password: randomString(PASSWORD_ALPHABET, 16),
  };
}

/** A new license's row but for its secret, which `insertLicense` makes. */
type NewLicense = Omit<typeof licenses.$inferInsert, keyof ReturnType<typeof storedSecret>>;

/**
 * Writes a new license with a fresh secret: a key, or sign-in credentials for tools delivered that way. Kept hashed
 * and sealed (decision 032): the clear text lives only in what this returns, for the delivery email.
 */
export async function insertLicense(
  ctx: Pick<AppContext, 'dataSecrets'>,
  tx: Tx,
  delivery: (typeof tools.$inferSelect)['delivery'],
  row: NewLicense,
): Promise<{ id: string; secret: LicenseCredentials }> {
  const secret: LicenseCredentials =
    delivery === 'credentials' ? generateCredentials() : { licenseKey: generateLicenseKey() };
  const [license] = await tx
    .insert(licenses)
    .values({ ...row, ...storedSecret(ctx.dataSecrets, secret) })
    .returning({ id: licenses.id });
  if (!license) throw new Error('license insert returned no row');
  return { id: license.id, secret };
}

/**
 * An order of several seats makes its license a team (decision 051), whether the license is new or a converted
 * trial: the purchase's own license (not a member's) gets the seats.
 */
export async function setSeatsOfPurchase(tx: Tx, purchaseId: string, seats: number): Promise<void> {
  await tx
    .update(licenses)
    .set({ seats })
    .where(and(eq(licenses.purchaseId, purchaseId), isNull(licenses.teamLicenseId)));
}

/**
 * A license moves to another edition of its tool (an upgrade, or its refund): the license and, for a team, every
 * member's seat with it, so each key answers with the new entitlements at its next validate (the change feed
 * announces each row). Only when it is still at `from`: a license changed meanwhile is left alone (false).
 */
export async function changeEdition(
  tx: Tx,
  licenseId: string,
  edition: { from: string; to: string },
): Promise<boolean> {
  const [moved] = await tx
    .update(licenses)
    .set({ editionId: edition.to })
    .where(and(eq(licenses.id, licenseId), eq(licenses.editionId, edition.from)))
    .returning({ id: licenses.id });
  if (!moved) return false;
  await tx
    .update(licenses)
    .set({ editionId: edition.to })
    .where(and(eq(licenses.teamLicenseId, licenseId), eq(licenses.editionId, edition.from)));
  return true;
}

/**
 * A license's updates end elsewhen (a renewal, or its refund): the license and, for a team, every member's seat with
 * it, each announced on the change feed. Only when it still ends at `from`: one changed meanwhile is left alone.
 */
export async function changeUpdatesUntil(
  tx: Tx,
  licenseId: string,
  updates: { from: Date; to: Date },
): Promise<boolean> {
  const [moved] = await tx
    .update(licenses)
    .set({ updatesUntil: updates.to })
    .where(and(eq(licenses.id, licenseId), eq(licenses.updatesUntil, updates.from)))
    .returning({ id: licenses.id });
  if (!moved) return false;
  await tx
    .update(licenses)
    .set({ updatesUntil: updates.to })
    .where(and(eq(licenses.teamLicenseId, licenseId), eq(licenses.updatesUntil, updates.from)));
  return true;
}

/**
 * A trial's license becomes the bought one (trials/trials.ts, convertTrial): the purchase's, with the edition and
 * updates bought, active and without an end; same key or credentials, its machine stays activated.
 */
export async function makeTrialBought(
  tx: Tx,
  licenseId: string,
  bought: { purchaseId: string; editionId: string | null; updatesUntil: Date | null },
  now: Date,
): Promise<void> {
  await tx
    .update(licenses)
    .set({ ...bought, status: 'active', expiresAt: null, statusChangedAt: now })
    .where(eq(licenses.id, licenseId));
}

/** A trial's end moves (the operator extends or ends it; decision 035). */
export async function setTrialEnd(tx: Tx, licenseId: string, expiresAt: Date): Promise<void> {
  await tx.update(licenses).set({ expiresAt }).where(eq(licenses.id, licenseId));
}
