import { prunePast } from '../db/prune';
import { downloadTokens } from '../db/schema/downloads';

/** Download links past their 3 hours. */
export const downloadLinkPrune = prunePast(
  'expiredDownloadLinks',
  downloadTokens,
  downloadTokens.tokenHash,
  downloadTokens.expiresAt,
);
