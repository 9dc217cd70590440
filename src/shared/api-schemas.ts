import { z } from 'zod';
import { type AccountPasskey, type AccountSession, EMAIL_TOPICS, type EmailPreferences } from './account';
import type { AuthCheckResponse, AuthUser, LoginResponse, MessageResponse } from './auth';
import type { CheckoutQuote } from './checkout-quote';
import { CURRENCIES } from './constants';
import type { ContactResponse } from './contact';
import type { CouponCheckResponse } from './coupons';
import type { LocationResponse } from './currency';
import type { ToolEditionView } from './editions';
import { exactly } from './exactly';
import {
  LICENSE_STATUSES,
  type LicenseFile,
  type MyDevice,
  type MyLicense,
  type PublicKeysResponse,
} from './licenses';
import type { OrderDetail } from './order-detail';
import type { OrderHistoryOrder } from './order-history';
import { ORDER_STATUSES } from './orders';
import type { ProformaAnswer, TdsCertificateAnswer } from './proforma';
import { REFUND_REQUEST_REASONS, REFUND_REQUEST_STATUSES, type RefundRequestView } from './refund-requests';
import { ARTIFACT_ARCHES, type ReleasePublicKeyResponse } from './releases';
import type {
  CreatePaymentResponse,
  PaymentsConfigResponse,
  PurchasedTool,
  StatusResponse,
  Tool,
} from './shop';
import { ownedTeamSchema, teamOwnerSchema } from './teams';
import type { StartTrialResponse } from './trials';

/**
 * Answers of the public API as zod schemas, for the OpenAPI document (docs/decisions/047-openapi-and-checkout-recovery.md).
 * Each is held `exactly` to the TypeScript type the server returns and the browser reads, so the two cannot drift
 * apart; the types stay where they are because the pages import them without loading zod.
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

export const toolEditionSchema = exactly<ToolEditionView>()(
  z
    .object({
      id: z.string(),
      name: z.string(),
      priceInr: z.number(),
      priceUsd: z.number().nullable(),
      entitlements: z.array(z.string()),
      deviceLimit: z.int(),
    })
    .meta({ id: 'ToolEdition' }),
);

export const toolSchema = exactly<Tool>()(
  z
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
      /** Lowest first; absent for a tool sold at its own prices (decision 056). */
      editions: z.array(toolEditionSchema).optional(),
    })
    .meta({ id: 'Tool' }),
);

export const catalogueAnswerSchema = z.array(toolSchema);

export const couponCheckAnswerSchema = exactly<CouponCheckResponse>()(
  z
    .object({ code: z.string(), price: z.number(), discount: z.number(), currency: z.enum(CURRENCIES) })
    .meta({ id: 'CouponCheck' }),
);

export const checkoutQuoteAnswerSchema = exactly<CheckoutQuote>()(
  z
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
    .meta({ id: 'CheckoutQuote' }),
);

export const proformaAnswerSchema = exactly<ProformaAnswer>()(
  z
    .object({
      orderId: z.string(),
      proformaNumber: z.string(),
      amountDue: z.number().int(),
      paymentLinkUrl: z.string().nullable(),
      validUntil: z.string(),
    })
    .meta({ id: 'ProformaInvoice' }),
);

export const tdsCertificateAnswerSchema = exactly<TdsCertificateAnswer>()(
  z
    .object({ message: z.string(), fileName: z.string(), uploadedAt: z.string() })
    .meta({ id: 'TdsCertificate' }),
);

export const startTrialAnswerSchema = exactly<StartTrialResponse>()(
  z
    .object({ status: z.literal('success'), message: z.string(), expiresAt: z.string() })
    .meta({ id: 'StartedTrial' }),
);

export const orderSummarySchema = exactly<OrderHistoryOrder>()(
  z
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
    .meta({ id: 'OrderHistoryOrder' }),
);

export const ordersAnswerSchema = z.array(orderSummarySchema);

export const emailPreferencesSchema = exactly<EmailPreferences>()(
  z
    .object({
      releases: z.boolean(),
      trials: z.boolean(),
      checkoutReminders: z.boolean(),
      renewalReminders: z.boolean(),
    })
    .meta({ id: 'EmailPreferences' }),
);

export const licensePublicKeysSchema = exactly<PublicKeysResponse>()(
  z
    .object({ keys: z.array(z.object({ kid: z.string(), publicKey: z.string() })) })
    .meta({ id: 'LicensePublicKeys' }),
);

const releaseKey = { kid: z.string(), publicKey: z.string(), sparklePublicEdKey: z.string() };
export const releasePublicKeySchema = exactly<ReleasePublicKeyResponse>()(
  z.object({ ...releaseKey, previous: z.array(z.object(releaseKey)) }).meta({ id: 'ReleasePublicKey' }),
);

/** A machine a license is active on, as the buyer and the operator see it. */
export const licenseDeviceSchema = exactly<MyDevice>()(
  z.object({
    id: z.string(),
    name: z.string().nullable(),
    activatedAt: z.string(),
    lastSeenAt: z.string(),
    offlineUntil: z.string().nullable(),
  }),
);

export const myLicenseSchema = exactly<MyLicense>()(
  z
    .object({
      toolId: z.string(),
      licenseKey: z.string().nullable(),
      username: z.string().nullable(),
      status: z.enum(LICENSE_STATUSES),
      activationLimit: z.int(),
      devices: z.array(licenseDeviceSchema),
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
      updatesUntil: z.string().nullable(),
      renewal: z.object({ amount: z.int(), currency: z.enum(CURRENCIES), months: z.int() }).nullable(),
      offlineDays: z.int().nullable(),
      suspendedReason: z.string().optional(),
    })
    .meta({ id: 'MyLicense' }),
);

export const myLicensesAnswerSchema = z.array(myLicenseSchema);

/** The signed offline license file (docs/license-api.md, "Offline license file"): base64 payload and signature. */
export const licenseFileSchema = exactly<LicenseFile>()(
  z
    .object({ alg: z.literal('ed25519'), kid: z.string(), payload: z.string(), signature: z.string() })
    .meta({ id: 'LicenseFile' }),
);

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

export const purchasedToolSchema = exactly<PurchasedTool>()(
  z
    .object({
      _id: z.string(),
      name: z.string(),
      description: z.string(),
      icon: z.string().nullable(),
      device: z.enum(['Windows', 'macOS']).nullable(),
      purchaseDate: z.string().nullable(),
      trialEndsAt: z.string().optional(),
      currentVersion: z
        .object({
          ...toolVersion,
          notesHtml: z.string(),
          minimumMacosVersion: z.string().nullable(),
          minimumWindowsVersion: z.string().nullable(),
        })
        .nullable(),
      earlierVersions: z.array(z.object(toolVersion)),
      team: ownedTeamSchema.optional(),
      teamOwner: teamOwnerSchema.optional(),
    })
    .meta({ id: 'PurchasedTool' }),
);

export const myToolsAnswerSchema = z.array(purchasedToolSchema);

// ── The site and the service ────────────────────────────────────────────────────────────────────────────────

export const healthAnswerSchema = z.object({ status: z.literal('ok') });
export const readyAnswerSchema = z.object({ status: z.literal('ready'), database: z.literal('reachable') });
export const notReadyAnswerSchema = z
  .union([
    z.object({ status: z.literal('unavailable'), database: z.literal('unreachable') }),
    z.object({ status: z.literal('draining') }),
  ])
  .describe(
    'The database cannot be reached right now (`Retry-After`), or the instance is shutting down (`draining`): send no traffic here',
  );
export const csrfTokenAnswerSchema = z.object({ csrfToken: z.string() });
export const locationAnswerSchema = exactly<LocationResponse>()(
  z.object({ country: z.string(), currency: z.enum(CURRENCIES) }),
);
export const contactAnswerSchema = exactly<ContactResponse>()(
  z.object({ status: z.enum(['success', 'partial_success']), message: z.string() }),
);
/** A done action, and the sentence that tells the person so. */
export const messageAnswerSchema = exactly<MessageResponse>()(z.object({ message: z.string() }));
export const statusAnswerSchema = exactly<StatusResponse>()(
  z.object({ status: z.enum(['success', 'error']), message: z.string() }),
);

// ── Signing in and the account ──────────────────────────────────────────────────────────────────────────────

const authUserSchema = exactly<AuthUser>()(
  z.object({ name: z.string(), email: z.string(), phone: z.string() }).meta({ id: 'User' }),
);
export const authCheckAnswerSchema = exactly<AuthCheckResponse>()(
  z.object({ loggedin: z.boolean(), user: authUserSchema.nullable() }),
);
/** A sign-in, a sign-up, a profile or email change: the account as it now is. */
export const signedInAnswerSchema = exactly<LoginResponse>()(
  z.object({ user: authUserSchema, message: z.string() }),
);
export const reauthAnswerSchema = z.object({ message: z.string(), minutes: z.int() });
const accountSessionSchema = exactly<AccountSession>()(
  z.object({
    id: z.string(),
    browser: z.string(),
    os: z.string(),
    country: z.string().nullable(),
    signedInAt: z.string(),
    lastUsedAt: z.string(),
    current: z.boolean(),
  }),
);
export const sessionsAnswerSchema = z.array(accountSessionSchema);
export const othersSignedOutAnswerSchema = z.object({ ended: z.int(), message: z.string() });
const accountPasskeySchema = exactly<AccountPasskey>()(
  z.object({
    id: z.string(),
    name: z.string(),
    createdAt: z.string(),
    lastUsedAt: z.string().nullable(),
    synced: z.boolean(),
  }),
);
export const passkeysAnswerSchema = z.array(accountPasskeySchema);
export const passkeysChangedAnswerSchema = z.object({ passkeys: passkeysAnswerSchema, message: z.string() });

/** WebAuthn's PublicKeyCredentialCreationOptionsJSON, as @simplewebauthn/server makes it for the browser. */
export const passkeyCreationOptionsSchema = z.object({
  challenge: z.string(),
  rp: z.object({ name: z.string(), id: z.string().optional() }),
  user: z.object({ id: z.string(), name: z.string(), displayName: z.string() }),
  pubKeyCredParams: z.array(z.object({ alg: z.int(), type: z.string() })),
  timeout: z.int().optional(),
  attestation: z.string().optional(),
  excludeCredentials: z
    .array(z.object({ id: z.string(), transports: z.array(z.string()).optional(), type: z.string() }))
    .optional(),
  authenticatorSelection: z
    .object({
      authenticatorAttachment: z.string().optional(),
      residentKey: z.string().optional(),
      userVerification: z.string().optional(),
      requireResidentKey: z.boolean().optional(),
    })
    .optional(),
  extensions: z.object({ credProps: z.boolean().optional() }).optional(),
  hints: z.array(z.string()).optional(),
});
/** WebAuthn's PublicKeyCredentialRequestOptionsJSON for a sign-in with any passkey of the site. */
export const passkeyRequestOptionsSchema = z.object({
  rpId: z.string().optional(),
  challenge: z.string(),
  timeout: z.int().optional(),
  userVerification: z.string().optional(),
});

export const unsubscribeLinkAnswerSchema = z.object({ topic: z.enum(EMAIL_TOPICS) });
export const unsubscribedAnswerSchema = z.object({
  topic: z.enum(EMAIL_TOPICS),
  subscribed: z.literal(false),
});
/** The account's data export: a JSON file whose parts are described in docs/privacy (what the shop holds). */
export const accountExportSchema = z
  .object({ summary: z.string() })
  .catchall(z.unknown())
  .describe('Everything the shop holds about the account, its summary first');

// ── The shop and the buyer's orders ─────────────────────────────────────────────────────────────────────────

export const paymentsConfigAnswerSchema = exactly<PaymentsConfigResponse>()(
  z.object({ keyId: z.string(), checkoutScript: z.string(), testMode: z.boolean() }),
);
export const createPaymentAnswerSchema = exactly<CreatePaymentResponse>()(
  z.object({
    status: z.literal('success'),
    order_id: z.string(),
    razorpay_key_id: z.string(),
    amount: z.int(),
    currency: z.enum(CURRENCIES),
    name: z.string(),
    email: z.string(),
    phone: z.string(),
    message: z.string(),
    free: z.literal(true).optional(),
  }),
);
/** What the Razorpay webhook did with an event (`duplicate` for one it had already applied). */
export const webhookAppliedAnswerSchema = z.object({ status: z.literal('ok'), result: z.string() });

export const refundRequestViewSchema = exactly<RefundRequestView>()(
  z.object({
    id: z.string(),
    orderId: z.string(),
    reason: z.enum(REFUND_REQUEST_REASONS),
    description: z.string(),
    status: z.enum(REFUND_REQUEST_STATUSES),
    declineReason: z.string().nullable(),
    createdAt: z.string(),
    decidedAt: z.string().nullable(),
  }),
);
const taxLineSchema = z.object({
  name: z.enum(['CGST', 'SGST', 'IGST']),
  rate: z.number(),
  amount: z.number().int(),
});
export const orderDetailSchema = exactly<OrderDetail>()(
  z.object({
    id: z.string(),
    createdAt: z.string(),
    status: z.enum(ORDER_STATUSES),
    currency: z.enum(CURRENCIES),
    lines: z.array(
      z.object({ description: z.string(), quantity: z.int(), unitPrice: z.number(), amount: z.number() }),
    ),
    listPrice: z.number(),
    coupon: z.object({ code: z.string() }).nullable(),
    discount: z.number(),
    taxableValue: z.number(),
    taxes: z.array(taxLineSchema),
    total: z.number(),
    tds: z.number(),
    amountDue: z.number(),
    billing: z.object({ address: z.string(), state: z.string(), country: z.string(), gstin: z.string() }),
    payment: z.object({
      reference: z.string().nullable(),
      orderReference: z.string(),
      method: z.string().nullable(),
      paidAt: z.string().nullable(),
    }),
    history: z.array(z.object({ at: z.string(), label: z.string() })),
    documents: z.array(
      z.object({
        kind: z.enum(['invoice', 'credit-note']),
        number: z.string(),
        issuedAt: z.string(),
        url: z.string(),
        cancelledBy: z.string().nullable(),
      }),
    ),
    billingCorrectableUntil: z.string().nullable(),
    license: z
      .object({
        id: z.string(),
        status: z.enum(LICENSE_STATUSES),
        edition: z.string().nullable(),
        devices: z.array(z.object({ name: z.string(), activatedAt: z.string(), lastSeenAt: z.string() })),
      })
      .nullable(),
    refund: z.object({ amount: z.number().int(), creditNote: z.string().nullable() }).nullable(),
    refundRequests: z.array(refundRequestViewSchema),
    proforma: z
      .object({
        number: z.string(),
        issuedAt: z.string(),
        validUntil: z.string(),
        url: z.string(),
        state: z.enum(['awaiting', 'paid', 'expired']),
        paymentLinkUrl: z.string().nullable(),
        bank: z
          .object({
            accountName: z.string(),
            accountNumber: z.string(),
            ifsc: z.string(),
            bankName: z.string(),
          })
          .nullable(),
        received: z.number(),
        receipts: z.array(
          z.object({
            method: z.enum(['payment-link', 'bank-transfer']),
            amount: z.number(),
            reference: z.string(),
            receivedOn: z.string(),
          }),
        ),
      })
      .nullable(),
    tdsCertificate: z
      .object({
        pan: z.string(),
        certificate: z
          .object({ fileName: z.string(), uploadedAt: z.string(), checked: z.boolean(), url: z.string() })
          .nullable(),
        canUpload: z.boolean(),
      })
      .nullable(),
  }),
);

/**
 * A download refused as JSON (a client that asks for JSON instead of the invalid-link page): the one error's fields,
 * in the order these answers have always had.
 */
export const downloadRefusalSchema = z.object({
  code: z.string(),
  status: z.literal('error'),
  message: z.string(),
  error: z.string(),
});

/**
 * A file's 503: the stored file is missing (`file_unavailable`, in the download refusal's order), or, like any call
 * under /api/, the database cannot be reached (the one error shape). Told apart by `code`, so each keeps its order.
 */
export const fileUnavailableSchema = z
  .union([downloadRefusalSchema.extend({ code: z.literal('file_unavailable') }), errorAnswerSchema])
  .describe('The stored file is missing (`file_unavailable`), or the database cannot be reached');
