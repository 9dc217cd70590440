import { createHash, timingSafeEqual } from 'node:crypto';
import DataLoader from 'dataloader';
import { and, count, eq, inArray, isNull, type SQL } from 'drizzle-orm';
import type {
  ActivationSummary,
  LicenseAnswer,
  LicenseCode,
  LicenseCredentials,
  LicenseStatus,
  LicenseSummary,
} from '../../shared/licenses';
import type { AppContext } from '../context';
import type { Database, DbOrTx } from '../db';
import { licenseActivations, licenses, purchases, tools } from '../db/schema';
import { issueLicenseFile } from './files';

/**
 * A "last seen" older than this is written again; fresher ones are left alone, so a tool that starts many times a
 * day costs one write per activation every five minutes at most (docs/license-api.md).
 */
const LAST_SEEN_RESOLUTION_MS = 5 * 60 * 1000;
/**
 * How long one instance answers validate from memory when it cannot hear changes as they commit (starting up, or
 * its listening connection lost). A change made elsewhere (a refund, a dispute, a device freed) then shows here
 * after at most this long; "refund → REVOKED within 2 s" needs it below 2 s.
 */
export const LICENSE_CACHE_TTL_MS = 1000;
/**
 * How long while it hears every change (change-feed.ts): a change drops the entry at once, so this only bounds how
 * old the license file handed out from memory is — its `refreshBefore` is at most this much short of 30 days.
 */
const LICENSE_CACHE_FOLLOWED_TTL_MS = 5 * 60 * 1000;
export const LICENSE_CACHE_MAX_ENTRIES = 20_000;
/** Unknown credentials are remembered more briefly, and in fewer entries, than known ones. */
export const UNKNOWN_LICENSE_CACHE_TTL_MS = 500;
export const UNKNOWN_LICENSE_CACHE_MAX_ENTRIES = 1000;

export type LicenseRequest = LicenseCredentials & { toolId: string; fingerprint: string };

type LicenseRow = {
  id: string;
  licenseKey: string | null;
  username: string | null;
  password: string | null;
  status: LicenseStatus;
  refundedAt: Date | null;
  toolId: string;
  toolName: string;
  activationLimit: number;
  activationId: string | null;
  activationFingerprint: string | null;
  activationName: string | null;
  activatedAt: Date | null;
  lastSeenAt: Date | null;
};

/** What an instance remembers for validate: the row, and the license file it last signed for this machine. */
export type KnownLicense = { row: LicenseRow; licenseFile?: string };

/** A refunded purchase revokes its license even if nothing else changed the license row. */
export function effectiveStatus(license: { status: LicenseStatus; refundedAt: Date | null }): LicenseStatus {
  return license.refundedAt ? 'revoked' : license.status;
}

function sameSecret(stored: string, given: string): boolean {
  const digest = (value: string) => createHash('sha256').update(value).digest();
  return timingSafeEqual(digest(stored), digest(given));
}

/** Licenses with their purchase and tool, and the live activation of the machines `activationOn` picks. */
function selectLicenses(db: DbOrTx, activationOn: SQL) {
  return db
    .select({
      id: licenses.id,
      licenseKey: licenses.licenseKey,
      username: licenses.username,
      password: licenses.password,
      status: licenses.status,
      refundedAt: purchases.refundedAt,
      toolId: tools.id,
      toolName: tools.name,
      activationLimit: tools.activationLimit,
      activationId: licenseActivations.id,
      activationFingerprint: licenseActivations.fingerprint,
      activationName: licenseActivations.name,
      activatedAt: licenseActivations.activatedAt,
      lastSeenAt: licenseActivations.lastSeenAt,
    })
    .from(licenses)
    .innerJoin(purchases, eq(purchases.id, licenses.purchaseId))
    .innerJoin(tools, eq(tools.id, purchases.toolId))
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
async function findLicense(db: DbOrTx, request: LicenseRequest): Promise<LicenseRow | undefined> {
  const byCredential: SQL =
    'licenseKey' in request
      ? eq(licenses.licenseKey, request.licenseKey)
      : eq(licenses.username, request.username);
  const [row] = await selectLicenses(db, eq(licenseActivations.fingerprint, request.fingerprint))
    .where(byCredential)
    .limit(1);
  return row;
}

type KeyLookup = { licenseKey: string; fingerprint: string };

/**
 * `findLicense` for many keys in one query: the licenses of all the keys, joined to the live activations of all
 * the machines, then each look-up picks its own license and its own machine's activation (or none).
 */
async function findLicensesByKey(
  db: DbOrTx,
  lookups: readonly KeyLookup[],
): Promise<(LicenseRow | undefined)[]> {
  const rows = await selectLicenses(
    db,
    inArray(licenseActivations.fingerprint, [...new Set(lookups.map((lookup) => lookup.fingerprint))]),
  ).where(inArray(licenses.licenseKey, [...new Set(lookups.map((lookup) => lookup.licenseKey))]));
  return lookups.map(({ licenseKey, fingerprint }) => {
    const ofKey = rows.filter((row) => row.licenseKey === licenseKey);
    const activated = ofKey.find((row) => row.activationFingerprint === fingerprint);
    if (activated) return { ...activated };
    const [license] = ofKey;
    if (!license) return undefined;
    return {
      ...license,
      activationId: null,
      activationFingerprint: null,
      activationName: null,
      activatedAt: null,
      lastSeenAt: null,
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

const LOADER_BATCH = 100;

export function createLicenseLoaders(db: Database): LicenseLoaders {
  const options = {
    cache: false,
    maxBatchSize: LOADER_BATCH,
    // After this turn's I/O callbacks, not after this request's own microtasks: that is what gathers calls.
    batchScheduleFn: (callback: () => void) => setImmediate(callback),
  };
  return {
    byKey: new DataLoader((lookups) => findLicensesByKey(db, lookups), {
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
function withCredential(row: LicenseRow | undefined, request: LicenseRequest): LicenseRow | undefined {
  if (!row) return undefined;
  if ('password' in request && !(row.password && sameSecret(row.password, request.password)))
    return undefined;
  return row;
}

async function lookUp(db: DbOrTx, request: LicenseRequest): Promise<LicenseRow | undefined> {
  return withCredential(await findLicense(db, request), request);
}

const credentialOf = (request: LicenseRequest) =>
  'licenseKey' in request ? `key:${request.licenseKey}` : `user:${request.username}`;

/** How long this instance may answer validate from memory: long while it hears every change, briefly otherwise. */
function rememberedFor(ctx: AppContext): number {
  return ctx.licenseChanges.follower?.healthy() ? LICENSE_CACHE_FOLLOWED_TTL_MS : LICENSE_CACHE_TTL_MS;
}

/**
 * Validate's look-up through this instance's caches (docs/license-api.md, decision 016). Only the credential's
 * existence and the row are remembered; the password is checked on every call.
 */
async function lookUpRemembered(ctx: AppContext, request: LicenseRequest): Promise<KnownLicense | undefined> {
  const { licenses: known, unknownLicenses: unknown } = ctx.caches;
  const credential = credentialOf(request);
  if (unknown.get(credential)) return undefined;
  const key = `${credential}\n${request.fingerprint}`;
  let entry = known.get(key, rememberedFor(ctx));
  if (!entry) {
    const generation = known.generation;
    const unknownGeneration = unknown.generation;
    const row =
      'licenseKey' in request
        ? await ctx.licenseLoaders.byKey.load(request)
        : await findLicense(ctx.db, request);
    if (!row) {
      unknown.set(credential, true, unknownGeneration);
      return undefined;
    }
    entry = { row };
    known.set(key, entry, generation);
  }
  return withCredential(entry.row, request) ? entry : undefined;
}

/**
 * Drops what this instance remembers of one license, or of every license when a change does not say which (a
 * refund, a dispute). Call it after the change has committed, so no look-up can store the state before it.
 */
export function forgetLicenses(ctx: AppContext, licenseId?: string): void {
  const { licenses: known, unknownLicenses } = ctx.caches;
  if (licenseId) known.deleteWhere((entry) => entry.row.id === licenseId);
  else known.clear();
  unknownLicenses.clear();
}

/** The first answer every call shares: unknown key, another tool's key, a revoked or suspended license. */
function refusal(row: LicenseRow | undefined, toolId: string): LicenseCode | undefined {
  if (!row) return 'INVALID_KEY';
  if (row.toolId !== toolId) return 'WRONG_TOOL';
  const status = effectiveStatus(row);
  if (status === 'revoked') return 'REVOKED';
  if (status === 'suspended') return 'SUSPENDED';
  return undefined;
}

async function activationsUsed(db: DbOrTx, licenseId: string): Promise<number> {
  const [row] = await db
    .select({ n: count() })
    .from(licenseActivations)
    .where(and(eq(licenseActivations.licenseId, licenseId), isNull(licenseActivations.deactivatedAt)));
  return row?.n ?? 0;
}

function summaryOf(row: LicenseRow, used: number): LicenseSummary {
  return {
    toolId: row.toolId,
    toolName: row.toolName,
    status: effectiveStatus(row),
    activationLimit: row.activationLimit,
    activationsUsed: used,
  };
}

function fileFor(ctx: AppContext, row: LicenseRow, activation: { id: string; fingerprint: string }): string {
  return issueLicenseFile(
    ctx.licenseSigning,
    {
      licenseKey: row.licenseKey,
      username: row.username,
      toolId: row.toolId,
      toolName: row.toolName,
      fingerprint: activation.fingerprint,
      activationId: activation.id,
      status: effectiveStatus(row),
    },
    ctx.clock.now(),
  );
}

/**
 * Activates this machine. The license row is locked while seats are counted, so concurrent activations can never
 * exceed the limit; a machine already activated gets its own activation back and uses no second seat.
 */
export async function activateLicense(
  ctx: AppContext,
  request: LicenseRequest & { name?: string },
): Promise<LicenseAnswer> {
  const found = await lookUp(ctx.db, request);
  const refused = refusal(found, request.toolId);
  if (refused || !found) {
    const license =
      found && refused !== 'WRONG_TOOL'
        ? summaryOf(found, await activationsUsed(ctx.db, found.id))
        : undefined;
    return { valid: false, code: refused ?? 'INVALID_KEY', ...(license ? { license } : {}) };
  }

  const answer = await ctx.db.transaction(async (tx): Promise<LicenseAnswer> => {
    const now = ctx.clock.now();
    const [locked] = await tx
      .select({ status: licenses.status })
      .from(licenses)
      .where(eq(licenses.id, found.id))
      .for('update');
    const row = { ...found, status: locked?.status ?? found.status };
    const lockedRefusal = refusal(row, request.toolId);
    if (lockedRefusal) return { valid: false, code: lockedRefusal };

    const live = await tx
      .select()
      .from(licenseActivations)
      .where(and(eq(licenseActivations.licenseId, found.id), isNull(licenseActivations.deactivatedAt)));
    let activation = live.find((candidate) => candidate.fingerprint === request.fingerprint);
    if (activation) {
      await tx
        .update(licenseActivations)
        .set({ lastSeenAt: now, ...(request.name ? { name: request.name } : {}) })
        .where(eq(licenseActivations.id, activation.id));
      activation = { ...activation, name: request.name ?? activation.name };
    } else {
      if (live.length >= row.activationLimit) {
        return { valid: false, code: 'LIMIT_REACHED', license: summaryOf(row, live.length) };
      }
      const [inserted] = await tx
        .insert(licenseActivations)
        .values({
          licenseId: found.id,
          fingerprint: request.fingerprint,
          name: request.name ?? null,
          activatedAt: now,
          lastSeenAt: now,
        })
        .returning();
      if (!inserted) throw new Error('activation insert returned no row');
      activation = inserted;
      live.push(inserted);
    }
    const summary: ActivationSummary = {
      id: activation.id,
      fingerprint: activation.fingerprint,
      name: activation.name,
      activatedAt: activation.activatedAt.toISOString(),
    };
    return {
      valid: true,
      code: 'VALID',
      license: summaryOf(row, live.length),
      activation: summary,
      licenseFile: fileFor(ctx, row, activation),
    };
  });
  // This machine may have been remembered as not activated.
  if (answer.valid) forgetLicenses(ctx, found.id);
  return answer;
}

/**
 * Checks this machine's license; every start of every copy of a tool calls it, so it is answered from this
 * instance's memory when it can (at most `LICENSE_CACHE_TTL_MS` old), and writes "last seen" at most once per
 * `LAST_SEEN_RESOLUTION_MS`. A VALID answer carries a license file signed within that same second: the tool's
 * offline refresh.
 */
export async function validateLicense(ctx: AppContext, request: LicenseRequest): Promise<LicenseAnswer> {
  const entry = await lookUpRemembered(ctx, request);
  const found = entry?.row;
  const refused = refusal(found, request.toolId);
  if (refused || !entry || !found) return { valid: false, code: refused ?? 'INVALID_KEY' };
  if (!found.activationId) return { valid: false, code: 'NOT_ACTIVATED' };

  const now = ctx.clock.now();
  if (!found.lastSeenAt || now.getTime() - found.lastSeenAt.getTime() >= LAST_SEEN_RESOLUTION_MS) {
    // Noted on the remembered row first, so concurrent calls for this machine write once.
    found.lastSeenAt = now;
    await ctx.licenseLoaders.lastSeen.load({ activationId: found.activationId, at: now });
  }
  entry.licenseFile ??= fileFor(ctx, found, { id: found.activationId, fingerprint: request.fingerprint });
  return { valid: true, code: 'VALID', licenseFile: entry.licenseFile };
}

/**
 * Frees this machine's seat, whatever the license's state (freeing a seat never grants anything). The answer
 * says what this machine is now: not activated, or revoked / suspended.
 */
export async function deactivateLicense(ctx: AppContext, request: LicenseRequest): Promise<LicenseAnswer> {
  const found = await lookUp(ctx.db, request);
  if (!found) return { valid: false, code: 'INVALID_KEY' };
  if (found.toolId !== request.toolId) return { valid: false, code: 'WRONG_TOOL' };

  let deactivated = false;
  if (found.activationId) {
    const freed = await ctx.db
      .update(licenseActivations)
      .set({ deactivatedAt: ctx.clock.now(), deactivatedBy: 'tool' })
      .where(and(eq(licenseActivations.id, found.activationId), isNull(licenseActivations.deactivatedAt)))
      .returning({ id: licenseActivations.id });
    deactivated = freed.length > 0;
    if (deactivated) forgetLicenses(ctx, found.id);
  }
  const status = effectiveStatus(found);
  const code: LicenseCode =
    status === 'revoked' ? 'REVOKED' : status === 'suspended' ? 'SUSPENDED' : 'NOT_ACTIVATED';
  return {
    valid: false,
    code,
    deactivated,
    license: summaryOf(found, await activationsUsed(ctx.db, found.id)),
  };
}
