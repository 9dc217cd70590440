import { z } from 'zod';
import { EDITION_NAME_MAX, ENTITLEMENT_CODE, ENTITLEMENTS_MAX } from './editions';
import { ACTIVATION_LIMIT_RANGE, MAX_PRICE_SUBUNITS, MIN_PRICE_SUBUNITS } from './tool-rules';
import { UPDATE_MONTHS_RANGE, UPDATES_FOR_PROBLEM } from './update-periods';

/** The zod schemas of editions (shared/editions.ts), apart so the shop's pages do not download zod. */

const subunits = (label: string) =>
  z
    .number({ error: `${label} must be an amount in subunits` })
    .int({ error: `${label} must be whole subunits (paise or cents)` })
    .min(MIN_PRICE_SUBUNITS, {
      error: `${label} must be at least 1.00, the smallest payment Razorpay accepts`,
    })
    .max(MAX_PRICE_SUBUNITS, { error: `${label} must be at most 10000000.00` });

const entitlementsField = z
  .array(
    z.string().regex(ENTITLEMENT_CODE, {
      error: 'Each entitlement is a short code: lower case letters, digits, - and _, starting with a letter',
    }),
  )
  .max(ENTITLEMENTS_MAX, { error: `At most ${ENTITLEMENTS_MAX} entitlements` })
  .refine((codes) => new Set(codes).size === codes.length, { error: 'An entitlement is named twice' });

const editionNameField = z
  .string()
  .trim()
  .min(1, { error: 'Give the edition a name' })
  .max(EDITION_NAME_MAX, { error: `An edition's name is at most ${EDITION_NAME_MAX} characters` })
  .regex(/^[\p{L}\p{N}][\p{L}\p{N} &+.-]*$/u, {
    error: 'An edition name is letters, digits, spaces and & + . - (like Pro or Small Business)',
  });

const deviceLimitField = z
  .number()
  .int()
  .min(ACTIVATION_LIMIT_RANGE.min, {
    error: `A device limit is ${ACTIVATION_LIMIT_RANGE.min} to ${ACTIVATION_LIMIT_RANGE.max}`,
  })
  .max(ACTIVATION_LIMIT_RANGE.max, {
    error: `A device limit is ${ACTIVATION_LIMIT_RANGE.min} to ${ACTIVATION_LIMIT_RANGE.max}`,
  });

/** Months of updates a purchase of the edition includes; null: lifetime (decision 059). */
const updatesMonthsField = z
  .number()
  .int()
  .min(UPDATE_MONTHS_RANGE.min, { error: UPDATES_FOR_PROBLEM })
  .max(UPDATE_MONTHS_RANGE.max, { error: UPDATES_FOR_PROBLEM })
  .nullable();

/**
 * A new edition; it goes above the tool's existing ones, with lifetime updates unless a period is given. `trial`: a
 * trial of the tool runs as this edition.
 */
export const newEditionSchema = z.strictObject({
  name: editionNameField,
  priceInrPaise: subunits('The INR price'),
  priceUsdCents: subunits('The USD price').nullable().default(null),
  entitlements: entitlementsField.default([]),
  /** null: the tool's activation limit. */
  deviceLimit: deviceLimitField.nullable().default(null),
  updatesMonths: updatesMonthsField.default(null),
  renewalPriceInrPaise: subunits('The INR renewal price').nullable().default(null),
  renewalPriceUsdCents: subunits('The USD renewal price').nullable().default(null),
  trial: z.literal(true).optional(),
});
export type NewEdition = z.output<typeof newEditionSchema>;

const editionChangeFields = {
  name: editionNameField.optional(),
  priceInrPaise: subunits('The INR price').optional(),
  priceUsdCents: subunits('The USD price').nullable().optional(),
  entitlements: entitlementsField.optional(),
  deviceLimit: deviceLimitField.nullable().optional(),
  /** Months of updates a purchase of the edition includes; null: lifetime (decision 059). */
  updatesMonths: updatesMonthsField.optional(),
  renewalPriceInrPaise: subunits('The INR renewal price').nullable().optional(),
  renewalPriceUsdCents: subunits('The USD renewal price').nullable().optional(),
  trial: z.literal(true).optional(),
};
const changesSomething = (changes: Record<string, unknown>) =>
  Object.values(changes).some((value) => value !== undefined);
const NOTHING_TO_CHANGE = { error: 'Nothing to change: give at least one field' };

/** Changes to an edition: only what is given changes. `trial`: a trial of the tool runs as this edition. */
export const editionChangesSchema = z
  .strictObject(editionChangeFields)
  .refine(changesSomething, NOTHING_TO_CHANGE);
export type EditionChanges = z.output<typeof editionChangesSchema>;

/**
 * The dashboard's edition forms: the same fields, and the fresh authenticator code that setting or changing a price
 * asks for there, as a tool's prices do (the route decides whether it is needed).
 */
const freshCodeField = { code: z.string().optional() };
export const dashboardNewEditionSchema = newEditionSchema.extend(freshCodeField);
export type DashboardNewEdition = z.input<typeof dashboardNewEditionSchema>;
export const dashboardEditionChangesSchema = z
  .strictObject({ ...editionChangeFields, ...freshCodeField })
  .refine(({ code: _code, ...changes }) => changesSomething(changes), NOTHING_TO_CHANGE);
export type DashboardEditionChanges = z.input<typeof dashboardEditionChangesSchema>;

/**
 * An edition as the dashboard's tool page lists it: prices in subunits, its own device limit (null: the tool's) and
 * whether a trial of the tool runs as it.
 */
export const adminEditionSchema = z.object({
  id: z.string(),
  name: z.string(),
  priceInrPaise: z.int(),
  priceUsdCents: z.int().nullable(),
  entitlements: z.array(z.string()),
  deviceLimit: z.int().nullable(),
  trial: z.boolean(),
});
export type AdminEdition = z.output<typeof adminEditionSchema>;
