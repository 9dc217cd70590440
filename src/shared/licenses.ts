import type { Currency } from './constants';
import type { LicenseEdition } from './editions';
/**
 * The license API that desktop tools call (docs/license-api.md): answer codes, messages and shapes. JSON only; every
 * answer about a license carries `valid` and one of these codes. The request schemas are in `license-schemas.ts`,
 * so that the pages that show licenses do not load zod.
 */
export const LICENSE_CODES = [
  'VALID',
  'TRIAL',
  'EXPIRED',
  'TRIAL_USED',
  'NOT_ACTIVATED',
  'LIMIT_REACHED',
  'DEACTIVATION_LIMIT',
  'SUSPENDED',
  'REVOKED',
  'WRONG_TOOL',
  'INVALID_KEY',
] as const;
export type LicenseCode = (typeof LICENSE_CODES)[number];

/** `trial`: a free trial until the license's end date (docs/decisions/035-trials.md); buying makes it `active`. */
export const LICENSE_STATUSES = ['active', 'trial', 'suspended', 'revoked'] as const;
export type LicenseStatus = (typeof LICENSE_STATUSES)[number];

/** How long an offline license file lets a tool start without asking the server. */
export const LICENSE_FILE_LIFETIME_DAYS = 30;
/**
 * Machines a buyer may free, from My Tools and through the license API together: at most this many per license in
 * the rolling window, unless the operator resets the count.
 */
export const SELF_DEACTIVATION_LIMIT = 3;
export const SELF_DEACTIVATION_WINDOW_DAYS = 30;

export const LICENSE_MESSAGES = {
  selfDeactivationLimit: `You have freed ${SELF_DEACTIVATION_LIMIT} devices of this license in the last ${SELF_DEACTIVATION_WINDOW_DAYS} days, the most allowed. Please contact support to free another one.`,
  deviceDeactivated: 'Device deactivated. The license can now be activated on another computer.',
  deviceNotFound: 'This device is not activated on your license.',
  licenseRevoked:
    'This license has been revoked after a refund or a lost payment dispute. Please contact support if you think this is a mistake.',
  licenseSuspended: 'This license is suspended while a payment dispute is open.',
  /** My Tools and "Get Credentials" for a license the firm suspended by hand, with its reason. */
  suspendedByFirm: (reason: string) =>
    `This license is suspended by Pinkcity Advisors: ${reason} Please contact support to resolve it.`,
} as const;

export type LicenseCredentials = { licenseKey: string } | { username: string; password: string };

export type LicenseSummary = {
  toolId: string;
  toolName: string;
  status: LicenseStatus;
  activationLimit: number;
  activationsUsed: number;
};

export type ActivationSummary = { id: string; fingerprint: string; name: string | null; activatedAt: string };

/** The signed offline license file, as JSON text (see docs/license-api.md). */
export type LicenseFile = { alg: 'ed25519'; kid: string; payload: string; signature: string };

/** What a license file's payload holds once decoded. */
export type LicenseFilePayload = {
  v: 1;
  licenseKey: string | null;
  username: string | null;
  toolId: string;
  toolName: string;
  fingerprint: string;
  activationId: string;
  status: LicenseStatus;
  issuedAt: string;
  refreshBefore: string;
  /** A trial's end (never later than `refreshBefore`); absent for a bought license, which does not end. */
  expiresAt?: string;
  /** A floating license's lease end (never earlier than `refreshBefore`): the file ends with the lease. */
  leaseExpiresAt?: string;
  /** The license's edition of a tool with editions, null without (decision 056), and the entitlements it unlocks. */
  edition: LicenseEdition | null;
  entitlements: string[];
  /** The end of the license's updates (decision 059); null: every release. */
  updatesUntil: string | null;
};

export type LicenseAnswer = {
  valid: boolean;
  code: LicenseCode;
  /** A sentence to show the user, where the code alone does not say what to do (DEACTIVATION_LIMIT). */
  message?: string;
  license?: LicenseSummary;
  activation?: ActivationSummary;
  /** The license file's JSON text: on a successful activate, and on a VALID validate (the tool's refresh). */
  licenseFile?: string;
  /** Deactivate only: whether a seat was freed by this call. */
  deactivated?: boolean;
  /** A trial's end (code TRIAL): the tool stops at this moment of the server's clock. */
  expiresAt?: string;
  /**
   * A floating license (activate, heartbeat, validate): when this machine's lease, and its seat, end unless a
   * heartbeat renews it first. Send the next heartbeat before half of the time left has passed.
   */
  leaseExpiresAt?: string;
  /** A floating license: how often to send a heartbeat (the lease lasts two of these). */
  heartbeatSeconds?: number;
  /** Activate only: this machine's update feeds (docs/updates.md), alive while the activation and license are. */
  updates?: UpdateUrls;
  /**
   * A license that may run (VALID, TRIAL): its edition of a tool with editions, or null (decision 056), and the
   * entitlements that edition unlocks, the feature codes a tool checks (`ocr`); empty without editions.
   */
  edition?: LicenseEdition | null;
  entitlements?: string[];
  /**
   * VALID and TRIAL: the end of the license's updates (ISO 8601; null: every release, for life). The license keeps
   * working after it; only releases published later need a renewal (decision 059).
   */
  updatesUntil?: string | null;
  /** SUSPENDED by the firm: why, in its words for the user (a dispute's suspension gives none). */
  reason?: string;
};

/** The newest published release a tool may update to, from `POST /api/licenses/update-check`. */
export type AvailableUpdate = {
  version: string;
  channel: 'stable' | 'beta';
  notesHtml: string;
  publishedAt: string;
  critical: boolean;
  artifact: { url: string; fileName: string; size: number; sha256: string; signature: string; kid: string };
};

/** The update check's answer: validate's code, and an update only for a valid license. */
export type UpdateCheckAnswer = { valid: boolean; code: LicenseCode; update: AvailableUpdate | null };

/** An activation's update feeds: a Sparkle / WinSparkle appcast, and the folder Velopack's UpdateManager reads. */
export type UpdateUrls = { appcastUrl: string; velopackUrl: string };

export type PublicKeysResponse = { keys: Array<{ kid: string; publicKey: string }> };

/** One machine on My Tools. */
export type MyDevice = {
  id: string;
  name: string | null;
  activatedAt: string;
  lastSeenAt: string;
};

/** GET /api/my-licenses/ → MyLicense[]: the buyer's licenses with their devices, for My Tools. */
export type MyLicense = {
  toolId: string;
  licenseKey: string | null;
  /** Credentials tools show the username; the password only ever travels by email. */
  username: string | null;
  status: LicenseStatus;
  activationLimit: number;
  devices: MyDevice[];
  /** How many more devices the buyer may free themselves in the current 30 days. */
  selfDeactivationsLeft: number;
  /** A trial's end; absent for a bought license. */
  expiresAt?: string;
  /** The license (the seat's own, for a member of a team). */
  licenseId: string;
  /** Its edition of a tool with editions (decision 056), null without. */
  edition: LicenseEdition | null;
  /**
   * The buyer's own bought license below its tool's top edition: each higher edition and what moving to it costs
   * today for all its seats (GST included, subunits of the license's currency). Empty otherwise.
   */
  upgrades: LicenseUpgrade[];
  /** The end of its updates (ISO 8601; decision 059); null: every release, for life. */
  updatesUntil: string | null;
  /**
   * The buyer's own bought license whose updates end within 60 days or have ended: what renewing them for another
   * period costs now for all its seats (GST included, subunits). Null otherwise.
   */
  renewal: LicenseRenewal | null;
  /** Suspended by the firm: its reason, to show the buyer. */
  suspendedReason?: string;
};

export type LicenseRenewal = { amount: number; currency: Currency; months: number };

export type LicenseUpgrade = {
  editionId: string;
  name: string;
  amount: number;
  currency: Currency;
  entitlements: string[];
};
