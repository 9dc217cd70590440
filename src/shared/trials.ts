/**
 * Free trials (docs/decisions/035-trials.md): what the shop, My Tools and the dashboard share. The request schema
 * is in shop-schemas.ts, so the pages do not load zod.
 */

/** The longest trial the operator may set; 0 means the tool has none. */
export const TRIAL_DAYS_RANGE = { min: 0, max: 365 } as const;
/** The reminder goes out this many days before a trial ends. */
export const TRIAL_REMINDER_DAYS = 3;
/** How far an operator may move a trial's end in one extension. */
export const TRIAL_EXTEND_DAYS_RANGE = { min: 1, max: 365 } as const;

export const TRIAL_MESSAGES = {
  noTrial: 'This tool has no free trial.',
  comingSoon: 'This tool is coming soon and cannot be tried yet.',
  alreadyOwned: 'You already own this tool.',
  coveredBySeat: 'Your seat on a team license already covers this tool, so it needs no free trial.',
  alreadyTrialled: 'You have already had a free trial of this tool.',
  started: (days: number) =>
    `Your ${days}-day free trial has started. We have emailed you the details; it is also on My Tools.`,
  startFailed: 'We could not start your free trial. Please try again.',
} as const;

/** POST /api/trials/ answer. */
export type StartTrialResponse = { status: 'success'; message: string; expiresAt: string };

/** Whether a typed number of trial days is a whole number in range. */
export function parseTrialDaysText(typed: string): number | undefined {
  const text = typed.trim();
  const value = Number(text);
  return /^\d+$/.test(text) && value >= TRIAL_DAYS_RANGE.min && value <= TRIAL_DAYS_RANGE.max
    ? value
    : undefined;
}
export const TRIAL_DAYS_PROBLEM = `a whole number of days from ${TRIAL_DAYS_RANGE.min} (no trial) to ${TRIAL_DAYS_RANGE.max}`;

/** Whole days left until `expiresAt`, rounded up (a trial ending in 3 hours has 1 day left); 0 once it ended. */
export function trialDaysLeft(expiresAt: string | Date, now: Date): number {
  const ms = new Date(expiresAt).getTime() - now.getTime();
  return ms <= 0 ? 0 : Math.ceil(ms / (24 * 60 * 60 * 1000));
}

/** The dashboard's trial figures, for the whole shop (Overview) or one tool. */
export type TrialFigures = {
  started: number;
  /** Not bought and not yet ended. */
  running: number;
  converted: number;
  /** converted / started, 0 to 1; null before any trial. */
  conversionRate: number | null;
};
