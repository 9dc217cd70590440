import { createHash, timingSafeEqual } from 'node:crypto';
import { and, count, eq, isNull, type SQL } from 'drizzle-orm';
import type {
  ActivationSummary,
  LicenseAnswer,
  LicenseCode,
  LicenseCredentials,
  LicenseStatus,
  LicenseSummary,
} from '../../shared/licenses';
import type { AppContext } from '../context';
import type { DbOrTx } from '../db';
import { licenseActivations, licenses, purchases, tools } from '../db/schema';
import { issueLicenseFile } from './files';

/** A "last seen" older than this is written again; fresher ones are left alone so validate stays one read. */
const LAST_SEEN_RESOLUTION_MS = 60 * 1000;

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
  activationName: string | null;
  activatedAt: Date | null;
  lastSeenAt: Date | null;
};

/** A refunded purchase revokes its license even if nothing else changed the license row. */
export function effectiveStatus(license: { status: LicenseStatus; refundedAt: Date | null }): LicenseStatus {
  return license.refundedAt ? 'revoked' : license.status;
}

function sameSecret(stored: string, given: string): boolean {
  const digest = (value: string) => createHash('sha256').update(value).digest();
  return timingSafeEqual(digest(stored), digest(given));
}

/**
 * The license a request names, with this machine's live activation if any. A key is looked up by itself; a
 * credentials tool by its username, and then the password must match. Unknown and wrong are the same answer.
 */
async function lookUp(db: DbOrTx, request: LicenseRequest): Promise<LicenseRow | undefined> {
  const byCredential: SQL =
    'licenseKey' in request
      ? eq(licenses.licenseKey, request.licenseKey)
      : eq(licenses.username, request.username);
  const [row] = await db
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
        eq(licenseActivations.fingerprint, request.fingerprint),
        isNull(licenseActivations.deactivatedAt),
      ),
    )
    .where(byCredential)
    .limit(1);
  if (!row) return undefined;
  if ('password' in request && !(row.password && sameSecret(row.password, request.password)))
    return undefined;
  return row;
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

  return ctx.db.transaction(async (tx) => {
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
}

/**
 * Checks this machine's license; every start of every copy of a tool calls it, so it is one read, plus a write
 * of "last seen" at most once a minute. A VALID answer carries a fresh license file: the tool's offline refresh.
 */
export async function validateLicense(ctx: AppContext, request: LicenseRequest): Promise<LicenseAnswer> {
  const found = await lookUp(ctx.db, request);
  const refused = refusal(found, request.toolId);
  if (refused || !found) return { valid: false, code: refused ?? 'INVALID_KEY' };
  if (!found.activationId) return { valid: false, code: 'NOT_ACTIVATED' };

  const now = ctx.clock.now();
  if (!found.lastSeenAt || now.getTime() - found.lastSeenAt.getTime() >= LAST_SEEN_RESOLUTION_MS) {
    await ctx.db
      .update(licenseActivations)
      .set({ lastSeenAt: now })
      .where(eq(licenseActivations.id, found.activationId));
  }
  return {
    valid: true,
    code: 'VALID',
    licenseFile: fileFor(ctx, found, { id: found.activationId, fingerprint: request.fingerprint }),
  };
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
