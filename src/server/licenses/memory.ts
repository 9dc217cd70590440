import type { ChannelFollower } from '../db/notifications';
import { TtlCache } from '../kernel/ttl-cache';
import type { LicenseRow } from './lookup';
import type { FeedOwner } from './update-tokens';

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
const LICENSE_CACHE_MAX_ENTRIES = 20_000;
/**
 * Update-feed tokens remembered (issue 69): a release day's fleet polls its feeds within hours, each machine under its
 * own token, and checks again within minutes (the appcast, then Velopack's feed or a download).
 */
const FEED_OWNER_MAX_ENTRIES = 50_000;
/** Unknown credentials are remembered more briefly, and in fewer entries, than known ones. */
const UNKNOWN_LICENSE_CACHE_TTL_MS = 500;
export const UNKNOWN_LICENSE_CACHE_MAX_ENTRIES = 1000;

/** What an instance remembers for validate: the row, and the license file it last signed for this machine. */
export type KnownLicense = {
  row: LicenseRow;
  licenseFile?: string;
  /**
   * The machine as the update check offers it releases (releases/offer.ts), with its feed token: one object while
   * this entry is remembered, so its rollout places and its token are worked out once, not on every check.
   */
  machine?: { activationId: string; updatesUntil: Date | null; updateToken: string };
};

/** Whether this instance hears every license change as it commits; until it is told so, it does not. */
export type LicenseChangeFeed = { follower?: Pick<ChannelFollower, 'healthy'> };

/** What this instance remembers of licenses (decision 016). Each app context has its own. */
export type LicenseMemory = {
  /** For `POST /api/licenses/validate`: a license as one machine sees it, by credential and fingerprint. */
  licenses: TtlCache<string, KnownLicense>;
  /** Credentials that named no license, kept apart and briefly so bad keys cannot push out good entries. */
  unknownLicenses: TtlCache<string, true>;
  /**
   * For the update feeds: the machine and license a live token serves (update-tokens.ts), forgotten with its
   * license like the entries above; a trial's is good only until the trial ends.
   */
  feedOwners: TtlCache<string, { owner: FeedOwner; trialEndsAt: number | null }>;
};

declare module '../kernel/context' {
  interface AppContext {
    /** Whether this instance hears license changes as they commit (set by `followLicenseChanges` in main.ts). */
    licenseChanges: LicenseChangeFeed;
  }
  interface AppCaches extends LicenseMemory {}
}

export function createLicenseMemory(): LicenseMemory {
  return {
    licenses: new TtlCache(LICENSE_CACHE_TTL_MS, LICENSE_CACHE_MAX_ENTRIES),
    unknownLicenses: new TtlCache(UNKNOWN_LICENSE_CACHE_TTL_MS, UNKNOWN_LICENSE_CACHE_MAX_ENTRIES),
    feedOwners: new TtlCache(LICENSE_CACHE_FOLLOWED_TTL_MS, FEED_OWNER_MAX_ENTRIES),
  };
}

/** How long this instance may answer validate from memory: long while it hears every change, briefly otherwise. */
export function rememberedFor(changes: LicenseChangeFeed): number {
  return changes.follower?.healthy() ? LICENSE_CACHE_FOLLOWED_TTL_MS : LICENSE_CACHE_TTL_MS;
}

/**
 * Drops what this instance remembers of one license, or of every license when a change does not say which (a
 * refund, a dispute). Call it after the change has committed, so no look-up can store the state before it.
 */
export function forgetLicenses(ctx: { caches: LicenseMemory }, licenseId?: string): void {
  const { licenses: known, unknownLicenses, feedOwners } = ctx.caches;
  if (licenseId) {
    known.deleteWhere((entry) => entry.row.id === licenseId);
    feedOwners.deleteWhere((entry) => entry.owner.licenseId === licenseId);
  } else {
    known.clear();
    feedOwners.clear();
  }
  unknownLicenses.clear();
}
