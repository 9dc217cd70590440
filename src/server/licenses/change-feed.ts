import type { DatabaseHandle } from '../db';
import { type ChannelFollower, followChanges } from '../db/notifications';
import type { AppContext } from '../kernel/context';
import { forgetLicenses } from './memory';

/** The channel the database's triggers announce license changes on (migration 0005, decision 018). */
export const LICENSE_CHANGES_CHANNEL = 'license_changes';

/**
 * Makes this instance drop what it remembers of a license as soon as a change to it commits, on any instance, in
 * the command line or in plain SQL: while that holds, validate may answer from memory for much longer than the
 * two seconds a change may take to show (memory.ts). Listening again after a lost connection forgets everything,
 * since what was announced meanwhile is unknown.
 */
export async function followLicenseChanges(
  ctx: AppContext,
  database: Pick<DatabaseHandle, 'follow'>,
  onProblem?: (error: Error) => void,
): Promise<ChannelFollower> {
  return followChanges(
    database,
    LICENSE_CHANGES_CHANNEL,
    ctx.licenseChanges,
    (changed) => forgetLicenses(ctx, changed),
    onProblem,
  );
}
