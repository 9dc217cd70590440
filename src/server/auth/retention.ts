import { type Prune, prunePast } from '../db/prune';
import { sessions, verificationCodes } from '../db/schema/accounts';

/** Sessions and emailed codes past their end. */
export const accountPrunes: Prune[] = [
  prunePast('expiredSessions', sessions, sessions.idHash, sessions.expiresAt),
  prunePast('expiredVerificationCodes', verificationCodes, verificationCodes.id, verificationCodes.expiresAt),
];
