import { inArray } from 'drizzle-orm';
import { normaliseEmail } from '../../shared/auth';
import type { Tx } from '../db';
import { trialClaims } from '../db/schema/accounts';
import type { DataSecrets } from '../kernel/data-secrets';

/**
 * One free trial per person and tool (decision 042): the trial claims the keyed hash of the tool and the normalised
 * address it was started from. The claim outlives an erased account (it holds nothing readable: without the data key
 * it names nobody), so deleting the account and signing up again does not give a second trial.
 */
const PURPOSE = 'trial-address';

export const trialClaimHash = (secrets: DataSecrets, toolId: string, email: string) =>
  secrets.lookupHash(PURPOSE, `${toolId}:${normaliseEmail(email)}`);

/** Whether the address already had a trial of the tool (under the current or a previous data key). */
export async function addressHadTrial(tx: Tx, secrets: DataSecrets, toolId: string, email: string) {
  const hashes = secrets.lookupHashes(PURPOSE, `${toolId}:${normaliseEmail(email)}`);
  const [found] = await tx
    .select({ claimHash: trialClaims.claimHash })
    .from(trialClaims)
    .where(inArray(trialClaims.claimHash, hashes))
    .limit(1);
  return found !== undefined;
}

/** Records the claim in the trial's transaction. */
export async function claimTrialFor(tx: Tx, secrets: DataSecrets, toolId: string, email: string) {
  await tx
    .insert(trialClaims)
    .values({ claimHash: trialClaimHash(secrets, toolId, email) })
    .onConflictDoNothing();
}
