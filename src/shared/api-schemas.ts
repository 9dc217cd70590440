import { z } from 'zod';
import type { EmailPreferences } from './account';
import type { CheckoutQuote } from './checkout-quote';
import { CURRENCIES } from './constants';
import type { CouponCheckResponse } from './coupons';
import type { ToolEditionView } from './editions';
import { LICENSE_STATUSES, type LicenseFile, type MyLicense, type PublicKeysResponse } from './licenses';
import type { OrderHistoryOrder } from './order-history';
import type { ProformaAnswer } from './proforma';
import { ARTIFACT_ARCHES, type ReleasePublicKeyResponse } from './releases';
import type { PurchasedTool, Tool } from './shop';
import { ownedTeamSchema, teamOwnerSchema } from './teams';
import type { StartTrialResponse } from './trials';

/**
 * Answers of the public API as zod schemas, for the OpenAPI document (docs/decisions/047-openapi-and-checkout-recovery.md).
 * Each `satisfies` the TypeScript type the server returns and the browser reads, so the two cannot drift apart;
 * the types stay where they are because the pages import them without loading zod.
 */

/** Every refusal outside the license API: a stable code, a message to show, and the field a form marks. */
export const errorAnswerSchema = z
  .object({
    code: z.string(),
    message: z.string(),
    fieldErrors: z.record(z.string(), z.string()).optional(),
    error: z.string(),
    status: z.literal('error'),
  })
  .meta({ id: 'Error' });

/**
 * A refusal of the license API: like its answers, it carries `valid`. Inlined where it is used (no id): the license
 * API's serialiser is compiled from its JSON schema, which holds no references.
 */
export const licenseErrorAnswerSchema = z.object({
  valid: z.literal(false),
  code: z.string(),
  message: z.string(),
  fieldErrors: z.record(z.string(), z.string()).optional(),
});

export const toolEditionSchema = z
  .object({
    id: z.string(),
    name: z.string(),
    priceInr: z.number(),
    priceUsd: z.number().nullable(),
    entitlements: z.array(z.string()),
    deviceLimit: z.int(),
  })
  .meta({ id: 'ToolEdition' }) satisfies z.ZodType<ToolEditionView>;

export const toolSchema = z
  .object({
    _id: z.string(),
    name: z.string(),
    description: z.string(),
    device: z.enum(['Windows', 'macOS']).nullable(),
    price: z.number(),
    priceINR: z.number(),
    priceUSD: z.number().nullable(),
    comingSoon: z.boolean(),
    purchased: z.boolean(),
    icon: z.string().nullable(),
    trialDays: z.int(),
    trialStarted: z.boolean().optional(),
    /** Signed in, a running or ended trial not bought: when it ends (ISO 8601). */
    trialEndsAt: z.string().optional(),
    /** Lowest first; empty for a tool sold at its own prices (decision 056). */
    editions: z.array(toolEditionSchema),
  })
  .meta({ id: 'Tool' }) satisfies z.ZodType<Tool>;

export const catalogueAnswerSchema = z.array(toolSchema);

export const couponCheckAnswerSchema = z
  .object({ code: z.string(), price: z.number(), discount: z.number(), currency: z.enum(CURRENCIES) })
  .meta({ id: 'CouponCheck' }) satisfies z.ZodType<CouponCheckResponse>;

export const checkoutQuoteAnswerSchema = z
  .object({
    listPrice: z.number().int(),
    discount: z.number().int(),
    taxableValue: z.number().int(),
    taxes: z.array(
      z.object({ name: z.enum(['CGST', 'SGST', 'IGST']), rate: z.number(), amount: z.number().int() }),
    ),
    total: z.number().int(),
    tds: z.number().int(),
    amountDue: z.number().int(),
    currency: z.enum(CURRENCIES),
    coupon: z.object({ code: z.string(), applied: z.boolean(), message: z.string() }).nullable(),
  })
  .meta({ id: 'CheckoutQuote' }) satisfies z.ZodType<CheckoutQuote>;

export const proformaAnswerSchema = z
  .object({
    orderId: z.string(),
    proformaNumber: z.string(),
    amountDue: z.number().int(),
    paymentLinkUrl: z.string().nullable(),
    validUntil: z.string(),
  })
  .meta({ id: 'ProformaInvoice' }) satisfies z.ZodType<ProformaAnswer>;

export const startTrialAnswerSchema = z
  .object({ status: z.literal('success'), message: z.string(), expiresAt: z.string() })
  .meta({ id: 'StartedTrial' }) satisfies z.ZodType<StartTrialResponse>;

export const orderSummarySchema = z
  .object({
    id: z.string(),
    createdAt: z.string(),
    toolName: z.string(),
    amount: z.number(),
    currency: z.enum(CURRENCIES),
    status: z.enum(['paid', 'refunded', 'awaiting-payment']),
    invoiceNumber: z.string().nullable(),
    invoiceUrl: z.string().nullable(),
    creditNoteNumber: z.string().nullable(),
    creditNoteUrl: z.string().nullable(),
  })
  .meta({ id: 'OrderHistoryOrder' }) satisfies z.ZodType<OrderHistoryOrder>;

export const ordersAnswerSchema = z.array(orderSummarySchema);

export const emailPreferencesSchema = z
  .object({ releases: z.boolean(), trials: z.boolean(), checkoutReminders: z.boolean() })
  .meta({ id: 'EmailPreferences' }) satisfies z.ZodType<EmailPreferences>;

export const licensePublicKeysSchema = z
  .object({ keys: z.array(z.object({ kid: z.string(), publicKey: z.string() })) })
  .meta({ id: 'LicensePublicKeys' }) satisfies z.ZodType<PublicKeysResponse>;

const releaseKey = { kid: z.string(), publicKey: z.string(), sparklePublicEdKey: z.string() };
export const releasePublicKeySchema = z
  .object({ ...releaseKey, previous: z.array(z.object(releaseKey)) })
  .meta({ id: 'ReleasePublicKey' }) satisfies z.ZodType<ReleasePublicKeyResponse>;

export const myLicenseSchema = z
  .object({
    toolId: z.string(),
    licenseKey: z.string().nullable(),
    username: z.string().nullable(),
    status: z.enum(LICENSE_STATUSES),
    activationLimit: z.int(),
    devices: z.array(
      z.object({
        id: z.string(),
        name: z.string().nullable(),
        activatedAt: z.string(),
        lastSeenAt: z.string(),
      }),
    ),
    selfDeactivationsLeft: z.int(),
    expiresAt: z.string().optional(),
    licenseId: z.string(),
    edition: z.object({ id: z.string(), name: z.string() }).nullable(),
    upgrades: z.array(
      z.object({
        editionId: z.string(),
        name: z.string(),
        amount: z.int(),
        currency: z.enum(CURRENCIES),
        entitlements: z.array(z.string()),
      }),
    ),
  })
  .meta({ id: 'MyLicense' }) satisfies z.ZodType<MyLicense>;

export const myLicensesAnswerSchema = z.array(myLicenseSchema);

/** The signed offline license file (docs/license-api.md, "Offline license file"): base64 payload and signature. */
export const licenseFileSchema = z
  .object({ alg: z.literal('ed25519'), kid: z.string(), payload: z.string(), signature: z.string() })
  .meta({ id: 'LicenseFile' }) satisfies z.ZodType<LicenseFile>;

export const deviceFreedAnswerSchema = z
  .object({ status: z.literal('success'), message: z.string(), selfDeactivationsLeft: z.int() })
  .meta({ id: 'DeviceFreed' });

const toolVersion = {
  version: z.string(),
  publishedAt: z.string().nullable(),
  installers: z.array(
    z.object({
      artifactId: z.string(),
      platform: z.enum(['windows', 'macos']),
      arch: z.enum(ARTIFACT_ARCHES),
      fileName: z.string(),
      size: z.int(),
    }),
  ),
};

export const purchasedToolSchema = z
  .object({
    _id: z.string(),
    name: z.string(),
    description: z.string(),
    icon: z.string().nullable(),
    device: z.enum(['Windows', 'macOS']).nullable(),
    purchaseDate: z.string().nullable(),
    trialEndsAt: z.string().optional(),
    currentVersion: z.object({ ...toolVersion, notesHtml: z.string() }).nullable(),
    earlierVersions: z.array(z.object(toolVersion)),
    team: ownedTeamSchema.optional(),
    teamOwner: teamOwnerSchema.optional(),
  })
  .meta({ id: 'PurchasedTool' }) satisfies z.ZodType<PurchasedTool>;

export const myToolsAnswerSchema = z.array(purchasedToolSchema);
