import DataLoader from 'dataloader';
import { and, eq, inArray, isNull, type SQL, sql } from 'drizzle-orm';
import type { LicenseCredentials, LicenseStatus } from '../../shared/licenses';
import type { LicenseModel } from '../../shared/tool-rules';
import type { Database, DbOrTx } from '../db';
import { toolEditions, tools } from '../db/schema/catalogue';
import { licenseActivations, licenses } from '../db/schema/licenses';
import { orders, purchases } from '../db/schema/orders';
import { trials } from '../db/schema/trials';
import type { DataSecrets } from '../kernel/data-secrets';
import { licenseKeyHashes, passwordMatches } from './secrets-at-rest';

/** Look-ups of licenses in the database: one request's, many keys' at once (batched), and the credential check. */

export type LicenseRequest = LicenseCredentials & { toolId: string; fingerprint: string };

/**
 * Bought licenses with what renewing one depends on: the license, its purchase, the currency its order was paid in,
 * its tool and its edition (null for a tool without editions). The caller says which licenses.
 */
export function boughtLicenses(db: DbOrTx) {
  return db
    .select({
      license: licenses,
      purchase: purchases,
      currency: orders.currency,
      tool: tools,
      edition: toolEditions,
    })
    .from(licenses)
    .innerJoin(purchases, eq(purchases.id, licenses.purchaseId))
    .innerJoin(orders, eq(orders.id, purchases.orderId))
    .innerJoin(tools, eq(tools.id, purchases.toolId))
    .leftJoin(toolEditions, eq(toolEditions.id, licenses.editionId));
}

/** Where licenses are looked up: the database, and the key their secrets are hashed with. */
type LicenseStore = { db: DbOrTx; dataSecrets: DataSecrets };

export type LicenseRow = {
  id: string;
  /** The key the request proved the license with (the database holds only its hash); null for credentials. */
  licenseKey: string | null;
  licenseKeyHash: string | null;
  username: string | null;
  passwordHash: string | null;
  status: LicenseStatus;
  refundedAt: Date | null;
  /** A trial's end; whether it has passed is decided at answer time (answers.ts), never remembered. */
  expiresAt: Date | null;
  /** The trial this license is (or was, once bought); null for a license that was bought outright. */
  trialId: string | null;
  toolId: string;
  toolName: string;
  /** Machines at a time: the edition's limit, else the tool's. */
  activationLimit: number;
  /** The license's edition of a tool with editions (decision 056), and the feature codes it unlocks. */
  editionId: string | null;
  editionName: string | null;
  entitlements: string[];
  /** The end of the license's updates (decision 059); null: every release. */
  updatesUntil: Date | null;
  /** The operator's reason for suspending it by hand; null for a dispute's suspension. */
  suspendedReason: string | null;
  /** The tool's license model and heartbeat interval (leases.ts). */
  licenseModel: LicenseModel;
  heartbeatMinutes: number;
  /** How long a computer activated without internet runs on its response file (offline.ts). */
  offlineDays: number;
  activationId: string | null;
  activationFingerprint: string | null;
  activationName: string | null;
  activatedAt: Date | null;
  lastSeenAt: Date | null;
  /** A floating license's lease on this machine; whether it has lapsed is decided at answer time (leases.ts). */
  leaseExpiresAt: Date | null;
};

/**
 * The purchase through which an account holds a license of a tool, bought or a seat of someone's team (decision
 * 051): the account's own license row, on a purchase not refunded, in one of `statuses`. Undefined when none.
 */
export async function heldPurchaseOf(
  db: DbOrTx,
  holder: { userId: string; toolId: string },
  statuses: readonly LicenseStatus[],
): Promise<{ id: string } | undefined> {
  const [purchase] = await db
    .select({ id: purchases.id })
    .from(purchases)
    .innerJoin(licenses, eq(licenses.purchaseId, purchases.id))
    .where(
      and(
        eq(licenses.holderId, holder.userId),
        eq(purchases.toolId, holder.toolId),
        isNull(purchases.refundedAt),
        inArray(licenses.status, [...statuses]),
      ),
    )
    .limit(1);
  return purchase;
}

/** A refunded purchase revokes its license even if nothing else changed the license row. */
export function effectiveStatus(license: { status: LicenseStatus; refundedAt: Date | null }): LicenseStatus {
  return license.refundedAt ? 'revoked' : license.status;
}

/** A bought license's tool comes from its purchase, a trial's from its trial. */
const toolOfLicense = sql`${tools.id} = coalesce(${purchases.toolId}, ${trials.toolId})`;

/** Licenses with their purchase or trial and tool, and the live activation of the machines `activationOn` picks. */
function selectLicenses(db: DbOrTx, activationOn: SQL) {
  return db
    .select({
      id: licenses.id,
      licenseKeyHash: licenses.licenseKeyHash,
      username: licenses.username,
      passwordHash: licenses.passwordHash,
      status: licenses.status,
      refundedAt: purchases.refundedAt,
      expiresAt: licenses.expiresAt,
      trialId: trials.id,
      toolId: tools.id,
      toolName: tools.name,
      activationLimit: sql<number>`coalesce(${toolEditions.deviceLimit}, ${tools.activationLimit})`,
      editionId: licenses.editionId,
      editionName: toolEditions.name,
      entitlements: sql<string[]>`coalesce(${toolEditions.entitlements}, '{}'::text[])`,
      updatesUntil: licenses.updatesUntil,
      suspendedReason: licenses.suspendedReason,
      licenseModel: tools.licenseModel,
      heartbeatMinutes: tools.heartbeatMinutes,
      offlineDays: tools.offlineDays,
      activationId: licenseActivations.id,
      activationFingerprint: licenseActivations.fingerprint,
      activationName: licenseActivations.name,
      activatedAt: licenseActivations.activatedAt,
      lastSeenAt: licenseActivations.lastSeenAt,
      leaseExpiresAt: licenseActivations.leaseExpiresAt,
    })
    .from(licenses)
    .leftJoin(purchases, eq(purchases.id, licenses.purchaseId))
    .leftJoin(trials, eq(trials.licenseId, licenses.id))
    .innerJoin(tools, toolOfLicense)
    .leftJoin(toolEditions, eq(toolEditions.id, licenses.editionId))
    .leftJoin(
      licenseActivations,
      and(
        eq(licenseActivations.licenseId, licenses.id),
        activationOn,
        isNull(licenseActivations.deactivatedAt),
      ),
    );
}

/**
 * The license a request names, with this machine's live activation if any. A key is looked up by itself; a
 * credentials tool by its username, and then the password must match (`withCredential`).
 */
export async function findLicense(
  store: LicenseStore,
  request: LicenseRequest,
): Promise<LicenseRow | undefined> {
  const byCredential: SQL =
    'licenseKey' in request
      ? inArray(licenses.licenseKeyHash, licenseKeyHashes(store.dataSecrets, request.licenseKey))
      : eq(licenses.username, request.username);
  const [row] = await selectLicenses(store.db, eq(licenseActivations.fingerprint, request.fingerprint))
    .where(byCredential)
    .limit(1);
  return row && { ...row, licenseKey: 'licenseKey' in request ? request.licenseKey : null };
}

/**
 * A license by its id, with this machine's live activation if any: what an activation without internet works from
 * (offline.ts), where the buyer's session or the operator names the license instead of a key. `licenseKey` is the
 * key as the buyer holds it, which the caller reveals (the request proves nothing).
 */
export async function findLicenseById(
  store: LicenseStore,
  licenseId: string,
  fingerprint: string,
  licenseKey: string | null,
): Promise<LicenseRow | undefined> {
  const [row] = await selectLicenses(store.db, eq(licenseActivations.fingerprint, fingerprint))
    .where(eq(licenses.id, licenseId))
    .limit(1);
  return row && { ...row, licenseKey };
}

type KeyLookup = { licenseKey: string; fingerprint: string };

/**
 * `findLicense` for many keys in one query: the licenses of all the keys, joined to the live activations of all
 * the machines, then each look-up picks its own license and its own machine's activation (or none).
 */
async function findLicensesByKey(
  store: LicenseStore,
  lookups: readonly KeyLookup[],
): Promise<(LicenseRow | undefined)[]> {
  const hashesOf = new Map(
    lookups.map(({ licenseKey }) => [licenseKey, licenseKeyHashes(store.dataSecrets, licenseKey)]),
  );
  const rows = await selectLicenses(
    store.db,
    inArray(licenseActivations.fingerprint, [...new Set(lookups.map((lookup) => lookup.fingerprint))]),
  ).where(inArray(licenses.licenseKeyHash, [...hashesOf.values()].flat()));
  return lookups.map(({ licenseKey, fingerprint }) => {
    const hashes = hashesOf.get(licenseKey) ?? [];
    const ofKey = rows.filter((row) => row.licenseKeyHash !== null && hashes.includes(row.licenseKeyHash));
    const activated = ofKey.find((row) => row.activationFingerprint === fingerprint);
    if (activated) return { ...activated, licenseKey };
    const [license] = ofKey;
    if (!license) return undefined;
    return {
      ...license,
      licenseKey,
      activationId: null,
      activationFingerprint: null,
      activationName: null,
      activatedAt: null,
      lastSeenAt: null,
      leaseExpiresAt: null,
    };
  });
}

/**
 * Validate's database work, batched: the look-ups and "last seen" writes of all the calls that arrive in one turn
 * of the event loop go to the database as one query each (up to `LOADER_BATCH` at a time). Nothing is cached here;
 * the caches decide what is looked up at all.
 */
export type LicenseLoaders = {
  byKey: DataLoader<KeyLookup, LicenseRow | undefined, string>;
  lastSeen: DataLoader<{ activationId: string; at: Date }, void, string>;
};

declare module '../kernel/context' {
  interface AppContext {
    /** Validate's look-ups and "last seen" writes, gathered per turn of the event loop into one query each. */
    licenseLoaders: LicenseLoaders;
  }
}

const LOADER_BATCH = 100;

export function createLicenseLoaders(db: Database, dataSecrets: DataSecrets): LicenseLoaders {
  const options = {
    cache: false,
    maxBatchSize: LOADER_BATCH,
    // After this turn's I/O callbacks, not after this request's own microtasks: that is what gathers calls.
    batchScheduleFn: (callback: () => void) => setImmediate(callback),
  };
  return {
    byKey: new DataLoader((lookups) => findLicensesByKey({ db, dataSecrets }, lookups), {
      ...options,
      cacheKeyFn: (lookup) => `${lookup.licenseKey}\n${lookup.fingerprint}`,
    }),
    lastSeen: new DataLoader(
      async (seen) => {
        // One timestamp for the batch: its calls arrived within the same few milliseconds.
        const at = new Date(Math.max(...seen.map((entry) => entry.at.getTime())));
        await db
          .update(licenseActivations)
          .set({ lastSeenAt: at })
          .where(
            inArray(
              licenseActivations.id,
              seen.map((entry) => entry.activationId),
            ),
          );
        return seen.map(() => undefined);
      },
      { ...options, cacheKeyFn: (entry) => entry.activationId },
    ),
  };
}

/** The row, if the request proves it: unknown and wrong are the same answer. */
export function withCredential(
  secrets: DataSecrets,
  row: LicenseRow | undefined,
  request: LicenseRequest,
): LicenseRow | undefined {
  if (!row) return undefined;
  if (
    'password' in request &&
    !(row.passwordHash && passwordMatches(secrets, row.passwordHash, request.password))
  )
    return undefined;
  return row;
}

export async function lookUp(store: LicenseStore, request: LicenseRequest): Promise<LicenseRow | undefined> {
  return withCredential(store.dataSecrets, await findLicense(store, request), request);
}

export const credentialOf = (request: LicenseRequest) =>
  'licenseKey' in request ? `key:${request.licenseKey}` : `user:${request.username}`;
