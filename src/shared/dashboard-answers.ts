import { z } from 'zod';
import { licenseDeviceSchema, refundRequestViewSchema } from './api-schemas';
import { CURRENCIES } from './constants';
import type { CouponDetail, CouponSummary } from './coupons';
import type {
  ActivityEntry,
  AdminLicense,
  AdminOrderDetail,
  AdminTool,
  AdminToolTrials,
  CursorPage,
  CustomerDetail,
  CustomerRow,
  DashboardStatus,
  EnrolmentDone,
  EnrolmentStart,
  InvoiceReport,
  MailStatus,
  MessageRow,
  OrderRow,
  OverviewResponse,
  Page,
} from './dashboard';
import { exactly } from './exactly';
import { LICENSE_STATUSES } from './licenses';
import { ORDER_STATUSES } from './orders';
import type { RefundRequestListRow } from './refund-requests';
import {
  type AdminRelease,
  ARTIFACT_ARCHES,
  ARTIFACT_KINDS,
  ARTIFACT_PLATFORMS,
  RELEASE_CHANNELS,
  RELEASE_STATES,
  VELOPACK_TYPES,
} from './releases';
import { WEBHOOK_EVENTS, type WebhookDeliverySummary, type WebhookEndpointSummary } from './webhooks';

/**
 * The dashboard's answers (/api/admin/…) as zod schemas, each held `exactly` to the type the server returns and the
 * dashboard reads (those stay in dashboard.ts and beside their features). Fields come in the order the server writes
 * them: an answer is serialised from its schema, which writes keys in its own order (docs/decisions/065).
 */

const operatorIs = <const State extends string>(state: State) =>
  z.object({ state: z.literal(state), email: z.string(), name: z.string() });
export const dashboardStatusSchema = exactly<DashboardStatus>()(
  z.discriminatedUnion('state', [
    z.object({ state: z.literal('signed_out') }),
    z.object({ state: z.literal('not_operator'), email: z.string() }),
    operatorIs('enrol'),
    operatorIs('verify'),
    operatorIs('ready'),
  ]),
);
export const enrolmentStartSchema = exactly<EnrolmentStart>()(
  z.object({ secret: z.string(), otpauthUrl: z.string(), qrSvg: z.string() }),
);
export const enrolmentDoneSchema = exactly<EnrolmentDone>()(z.object({ recoveryCodes: z.array(z.string()) }));

const money = z.object({ INR: z.number(), USD: z.number() });
const period = z.object({ orders: z.int(), revenue: money });
export const overviewSchema = exactly<OverviewResponse>()(
  z.object({
    periods: z.object({ today: period, last7Days: period, last30Days: period }),
    daily: z.array(z.object({ day: z.string(), orders: z.int(), revenue: money })),
    openItems: z.object({
      unhandledMessages: z.int(),
      failedMail: z.int(),
      retryingMail: z.int(),
      openRefundRequests: z.int(),
    }),
    trials: z.object({
      started: z.int(),
      running: z.int(),
      converted: z.int(),
      conversionRate: z.number().nullable(),
    }),
    coupons: z.object({ orders: z.int(), discount: money }),
    recoveredCheckouts: z.object({ orders: z.int(), value: money }),
  }),
);

/** A keyset-paged list of orders or customers (shared/dashboard.ts, CursorPage), its fields in the order written. */
const cursorPage = <Item extends z.ZodType>(item: Item) =>
  z.object({
    items: z.array(item),
    previous: z.string().nullable(),
    next: z.string().nullable(),
    total: z.int(),
    totalCapped: z.boolean(),
    pageSize: z.int(),
  });
/** A page-numbered list (Page). */
const numberedPage = <Item extends z.ZodType>(item: Item) =>
  z.object({ items: z.array(item), total: z.int(), page: z.int(), pageSize: z.int() });

const orderRowSchema = exactly<OrderRow>()(
  z.object({
    id: z.string(),
    createdAt: z.string(),
    email: z.string(),
    customerName: z.string(),
    tool: z.string(),
    amount: z.number(),
    currency: z.enum(CURRENCIES),
    status: z.enum(ORDER_STATUSES),
    razorpayOrderId: z.string(),
    razorpayPaymentId: z.string().nullable(),
    couponCode: z.string().nullable(),
    discount: z.number().nullable(),
  }),
);
export const ordersPageSchema = exactly<CursorPage<OrderRow>>()(cursorPage(orderRowSchema));

const adminLicenseSchema = exactly<AdminLicense>()(
  z.object({
    id: z.string(),
    orderId: z.string(),
    toolName: z.string(),
    maskedKey: z.string().nullable(),
    username: z.string().nullable(),
    status: z.enum(LICENSE_STATUSES),
    activationLimit: z.int(),
    selfDeactivationsLeft: z.int(),
    devices: z.array(licenseDeviceSchema),
    seats: z.int(),
    members: z.array(
      z.object({
        memberId: z.string(),
        email: z.string(),
        name: z.string(),
        isOwner: z.boolean(),
        joinedAt: z.string(),
      }),
    ),
  }),
);
const taxDocumentRef = z.object({ number: z.string(), issuedAt: z.string(), pdfUrl: z.string() }).nullable();
export const adminOrderDetailSchema = exactly<AdminOrderDetail>()(
  z.object({
    ...orderRowSchema.shape,
    paidAt: z.string().nullable(),
    failureReason: z.string().nullable(),
    billing: z.record(z.string(), z.unknown()),
    licenses: z.array(adminLicenseSchema),
    invoice: taxDocumentRef,
    creditNote: taxDocumentRef,
    events: z.array(z.object({ id: z.int(), kind: z.string(), detail: z.unknown(), createdAt: z.string() })),
    emails: z.array(
      z.object({
        id: z.int(),
        subject: z.string(),
        kind: z.string(),
        status: z.string(),
        createdAt: z.string(),
        sentAt: z.string().nullable(),
        lastError: z.string().nullable(),
      }),
    ),
  }),
);

const customerRowSchema = exactly<CustomerRow>()(
  z.object({
    id: z.string(),
    name: z.string(),
    email: z.string(),
    phone: z.string(),
    tools: z.int(),
    orders: z.int(),
    createdAt: z.string(),
    erasedAt: z.string().nullable(),
  }),
);
export const customersPageSchema = exactly<CursorPage<CustomerRow>>()(cursorPage(customerRowSchema));
export const customerDetailSchema = exactly<CustomerDetail>()(
  z.object({
    ...customerRowSchema.shape,
    orderList: z.array(orderRowSchema),
    licenses: z.array(adminLicenseSchema),
  }),
);

const messageRowSchema = exactly<MessageRow>()(
  z.object({
    id: z.string(),
    name: z.string(),
    organisation: z.string().nullable(),
    email: z.string(),
    relatedTo: z.string(),
    description: z.string(),
    createdAt: z.string(),
    handledAt: z.string().nullable(),
  }),
);
export const messagesPageSchema = exactly<Page<MessageRow>>()(numberedPage(messageRowSchema));

export const mailStatusSchema = exactly<MailStatus>()(
  z.object({
    counts: z.object({ pending: z.int(), sent: z.int(), failed: z.int(), retrying: z.int() }),
    problems: z.array(
      z.object({
        id: z.int(),
        to: z.string(),
        subject: z.string(),
        kind: z.string(),
        status: z.enum(['pending', 'failed']),
        attempts: z.int(),
        lastError: z.string().nullable(),
        nextAttemptAt: z.string(),
        createdAt: z.string(),
      }),
    ),
  }),
);

const taxFigures = {
  taxableValue: z.number(),
  igst: z.number(),
  cgst: z.number(),
  sgst: z.number(),
  total: z.number(),
};
export const invoiceReportSchema = exactly<InvoiceReport>()(
  z.object({
    from: z.string(),
    to: z.string(),
    documents: z.array(
      z.object({
        section: z.enum(['b2b', 'exp', 'cdn']),
        number: z.string(),
        date: z.string(),
        buyerName: z.string(),
        buyerGstin: z.string().nullable(),
        placeOfSupply: z.string(),
        originalNumber: z.string().nullable(),
        ...taxFigures,
      }),
    ),
    b2c: z.array(
      z.object({ placeOfSupply: z.string(), ratePercent: z.number(), documents: z.int(), ...taxFigures }),
    ),
    unconverted: z.array(z.string()),
  }),
);

const activityEntrySchema = exactly<ActivityEntry>()(
  z.object({
    id: z.int(),
    actor: z.string(),
    action: z.string(),
    target: z.string().nullable(),
    before: z.unknown(),
    after: z.unknown(),
    createdAt: z.string(),
  }),
);
/** The activity log's keyset page: the same fields as the orders' page, written in another order. */
export const activityPageSchema = exactly<CursorPage<ActivityEntry>>()(
  z.object({
    items: z.array(activityEntrySchema),
    total: z.int(),
    totalCapped: z.boolean(),
    pageSize: z.int(),
    next: z.string().nullable(),
    previous: z.string().nullable(),
  }),
);

export const adminToolSchema = exactly<AdminTool>()(
  z.object({
    id: z.string(),
    name: z.string(),
    description: z.string(),
    device: z.enum(['Windows', 'macOS']).nullable(),
    pricePaise: z.int(),
    priceCents: z.int().nullable(),
    comingSoon: z.boolean(),
    active: z.boolean(),
    delivery: z.enum(['license_key', 'credentials']),
    activationLimit: z.int(),
    licenseModel: z.enum(['per-device', 'floating']),
    heartbeatMinutes: z.int(),
    trialDays: z.int(),
    updatesMonths: z.int().nullable(),
    renewalPricePaise: z.int().nullable(),
    renewalPriceCents: z.int().nullable(),
    file: z.object({ name: z.string(), size: z.int(), sha256: z.string() }).nullable(),
    packageId: z.string().nullable(),
    defaultPackageId: z.string(),
    updatedAt: z.string(),
  }),
);
export const toolsPageSchema = exactly<Page<AdminTool>>()(numberedPage(adminToolSchema));

export const toolTrialsSchema = exactly<AdminToolTrials>()(
  z.object({
    figures: overviewSchema.shape.trials,
    trials: z.array(
      z.object({
        id: z.string(),
        customerEmail: z.string(),
        startedAt: z.string(),
        expiresAt: z.string().nullable(),
        state: z.enum(['running', 'ended', 'bought']),
      }),
    ),
  }),
);
/** A trial extended or ended: its id and its new end. */
export const trialEndSchema = z.object({ id: z.string(), expiresAt: z.string() });

export const couponSummarySchema = exactly<CouponSummary>()(
  z.object({
    id: z.string(),
    code: z.string(),
    percent: z.number().nullable(),
    amountInr: z.number().nullable(),
    amountUsd: z.number().nullable(),
    toolIds: z.array(z.string()),
    startsAt: z.string().nullable(),
    endsAt: z.string().nullable(),
    maxUses: z.int().nullable(),
    reusable: z.boolean(),
    disabledAt: z.string().nullable(),
    createdAt: z.string(),
    createdBy: z.string(),
    used: z.int(),
    reserved: z.int(),
    state: z.enum(['active', 'scheduled', 'expired', 'used-up', 'disabled']),
  }),
);
export const couponDetailSchema = exactly<CouponDetail>()(
  z.object({
    ...couponSummarySchema.shape,
    uses: z.array(
      z.object({
        orderId: z.string(),
        email: z.string(),
        toolName: z.string(),
        state: z.enum(['reserved', 'used', 'released']),
        currency: z.enum(CURRENCIES),
        listPrice: z.number(),
        discount: z.number(),
        paid: z.number(),
        createdAt: z.string(),
      }),
    ),
    revenue: z.array(
      z.object({ currency: z.enum(CURRENCIES), orders: z.int(), paid: z.number(), discount: z.number() }),
    ),
  }),
);

export const webhookEndpointSchema = exactly<WebhookEndpointSummary>()(
  z.object({
    id: z.string(),
    url: z.string(),
    description: z.string(),
    events: z.array(z.enum(WEBHOOK_EVENTS)),
    enabled: z.boolean(),
    disabledReason: z.string().nullable(),
    failingSince: z.string().nullable(),
    createdAt: z.string(),
  }),
);
/** An endpoint added, or its secret rotated: shown once, with the secret to give the receiver. */
export const webhookEndpointWithSecretSchema = webhookEndpointSchema.extend({ secret: z.string() });
const webhookDeliverySchema = exactly<WebhookDeliverySummary>()(
  z.object({
    id: z.int(),
    messageId: z.string(),
    event: z.enum(WEBHOOK_EVENTS),
    state: z.enum(['pending', 'delivered', 'failed']),
    attempts: z.array(
      z.object({
        attempt: z.int(),
        status: z.int().nullable(),
        error: z.string().nullable(),
        excerpt: z.string().nullable(),
        durationMs: z.number(),
        at: z.string(),
      }),
    ),
    nextAttemptAt: z.string().nullable(),
    createdAt: z.string(),
  }),
);
export const webhookDeliveriesSchema = z.object({
  endpoint: webhookEndpointSchema,
  deliveries: z.array(webhookDeliverySchema),
});
export const redeliveredSchema = z.object({ id: z.int(), endpointId: z.string(), event: z.string() });

export const refundRequestRowSchema = exactly<RefundRequestListRow>()(
  z.object({
    ...refundRequestViewSchema.shape,
    email: z.string(),
    tool: z.string(),
    amount: z.number(),
    currency: z.enum(CURRENCIES),
  }),
);

const adminArtifactSchema = z.object({
  id: z.string(),
  platform: z.enum(ARTIFACT_PLATFORMS),
  arch: z.enum(ARTIFACT_ARCHES),
  kind: z.enum(ARTIFACT_KINDS),
  fileName: z.string(),
  size: z.int(),
  sha1: z.string(),
  sha256: z.string(),
  signature: z.string(),
  kid: z.string(),
  velopackType: z.enum(VELOPACK_TYPES).nullable(),
  installerArguments: z.string().nullable(),
  createdAt: z.string(),
});
export const adminReleaseSchema = exactly<AdminRelease>()(
  z.object({
    id: z.string(),
    toolId: z.string(),
    version: z.string(),
    channel: z.enum(RELEASE_CHANNELS),
    state: z.enum(RELEASE_STATES),
    notesMarkdown: z.string(),
    notesHtml: z.string(),
    buildNumber: z.int(),
    minimumMacosVersion: z.string().nullable(),
    minimumWindowsVersion: z.string().nullable(),
    critical: z.boolean(),
    createdAt: z.string(),
    publishedAt: z.string().nullable(),
    yankedAt: z.string().nullable(),
    artifacts: z.array(adminArtifactSchema),
  }),
);
