import type { Currency } from '../../shared/constants';
import type { Config } from '../kernel/config';

/** Razorpay's Orders API. Only the fields this shop reads are typed. */
export type RazorpayOrder = {
  id: string;
  entity: 'order';
  amount: number;
  amount_paid: number;
  amount_due: number;
  currency: string;
  receipt: string | null;
  status: 'created' | 'attempted' | 'paid';
  attempts: number;
  notes: Record<string, string> | unknown[];
  created_at: number;
};

export type RazorpayPayment = {
  id: string;
  entity: 'payment';
  amount: number;
  currency: string;
  status: 'created' | 'authorized' | 'captured' | 'refunded' | 'failed';
  order_id: string | null;
  captured: boolean;
  /** card, upi, netbanking, wallet, emi… */
  method?: string;
  error_code?: string | null;
  error_description?: string | null;
  /** What Razorpay settles in rupees (paise): the amount itself for INR, converted for other currencies. */
  base_amount?: number;
  created_at: number;
};

export type RazorpayRefund = {
  id: string;
  entity: 'refund';
  amount: number;
  currency: string;
  payment_id: string;
  status: string;
};

/** Razorpay's Payment Links API (a Standard link): a hosted page that takes one payment of `amount`. */
export type RazorpayPaymentLink = {
  id: string;
  amount: number;
  amount_paid: number;
  currency: string;
  /** created, partially_paid, expired, cancelled, paid */
  status: string;
  reference_id: string | null;
  expire_by: number;
  short_url: string;
  /** Payments made through the link (the fetch answer lists them; creating one answers an empty list or null). */
  payments?: Array<{ payment_id: string; amount: number; status: string; created_at?: number }> | null;
};

export const RAZORPAY_API_URL = 'https://api.razorpay.com';
export const RAZORPAY_CHECKOUT_SCRIPT = 'https://checkout.razorpay.com/v1/checkout.js';
export const EMULATOR_PREFIX = '/emulator/razorpay';

/** Razorpay's error body: `{ error: { code, description, ... } }`. */
export class GatewayError extends Error {
  constructor(
    message: string,
    readonly status: number | undefined,
    readonly gatewayCode?: string,
  ) {
    super(message);
    this.name = 'GatewayError';
  }
}

export type GatewayOptions = {
  keyId: string;
  keySecret: string;
  /** Base URL without /v1; Razorpay's own API unless a test or the emulator says otherwise. */
  apiUrl?: string;
  timeoutMs?: number;
};

/**
 * The one Razorpay client: HTTPS (or a local Razorpay-compatible server) with Basic auth, JSON in and out.
 * Development and tests run the very same code against the emulator; only the base URL differs.
 */
export class RazorpayGateway {
  readonly apiUrl: string;
  private readonly authorization: string;
  private readonly timeoutMs: number;

  constructor(options: GatewayOptions) {
    this.apiUrl = (options.apiUrl ?? RAZORPAY_API_URL).replace(/\/+$/, '');
    this.authorization = `Basic ${Buffer.from(`${options.keyId}:${options.keySecret}`).toString('base64')}`;
    this.timeoutMs = options.timeoutMs ?? 15_000;
  }

  createOrder(input: {
    amount: number;
    currency: Currency;
    receipt: string;
    notes: Record<string, string>;
  }): Promise<RazorpayOrder> {
    return this.call<RazorpayOrder>('POST', '/v1/orders', input);
  }

  fetchOrder(orderId: string): Promise<RazorpayOrder> {
    return this.call<RazorpayOrder>('GET', `/v1/orders/${encodeURIComponent(orderId)}`);
  }

  async fetchOrderPayments(orderId: string): Promise<RazorpayPayment[]> {
    const collection = await this.call<{ items: RazorpayPayment[] }>(
      'GET',
      `/v1/orders/${encodeURIComponent(orderId)}/payments`,
    );
    return collection.items;
  }

  fetchPayment(paymentId: string): Promise<RazorpayPayment> {
    return this.call<RazorpayPayment>('GET', `/v1/payments/${encodeURIComponent(paymentId)}`);
  }

  /**
   * Refunds a payment. `idempotencyKey` goes out as X-Refund-Idempotency: a retry after a timeout or a crash gets
   * the refund Razorpay already made instead of a second one (use one key per order and reason).
   */
  refundPayment(
    paymentId: string,
    input: { amount?: number; notes?: Record<string, string>; idempotencyKey?: string } = {},
  ) {
    const { idempotencyKey, ...body } = input;
    return this.call<RazorpayRefund>(
      'POST',
      `/v1/payments/${encodeURIComponent(paymentId)}/refund`,
      body,
      idempotencyKey ? { 'x-refund-idempotency': idempotencyKey } : {},
    );
  }

  /**
   * A Standard Payment Link for exactly `amount` (no partial payments), tied to our order by `reference_id` (unique
   * per link at Razorpay) and expiring at `expireBy`. Razorpay emails nothing itself: the proforma carries the link.
   */
  createPaymentLink(input: {
    amount: number;
    currency: Currency;
    referenceId: string;
    expireBy: Date;
    description: string;
    customer: { name: string; email: string; contact?: string };
    notes: Record<string, string>;
  }): Promise<RazorpayPaymentLink> {
    return this.call<RazorpayPaymentLink>('POST', '/v1/payment_links', {
      amount: input.amount,
      currency: input.currency,
      accept_partial: false,
      reference_id: input.referenceId,
      expire_by: Math.floor(input.expireBy.getTime() / 1000),
      description: input.description,
      customer: input.customer,
      notify: { sms: false, email: false },
      reminder_enable: false,
      notes: input.notes,
    });
  }

  fetchPaymentLink(linkId: string): Promise<RazorpayPaymentLink> {
    return this.call<RazorpayPaymentLink>('GET', `/v1/payment_links/${encodeURIComponent(linkId)}`);
  }

  /** Cancels a link that must not be paid any more (the order was paid another way, or expired). */
  cancelPaymentLink(linkId: string): Promise<RazorpayPaymentLink> {
    return this.call<RazorpayPaymentLink>(
      'POST',
      `/v1/payment_links/${encodeURIComponent(linkId)}/cancel`,
      {},
    );
  }

  private async call<T>(
    method: 'GET' | 'POST',
    path: string,
    body?: unknown,
    extraHeaders: Record<string, string> = {},
  ): Promise<T> {
    let response: Response;
    try {
      response = await fetch(`${this.apiUrl}${path}`, {
        method,
        headers: {
          authorization: this.authorization,
          accept: 'application/json',
          ...(body === undefined ? {} : { 'content-type': 'application/json' }),
          ...extraHeaders,
        },
        body: body === undefined ? undefined : JSON.stringify(body),
        signal: AbortSignal.timeout(this.timeoutMs),
      });
    } catch (error) {
      throw new GatewayError(`Razorpay unreachable: ${(error as Error).message}`, undefined);
    }
    const text = await response.text();
    let data: unknown;
    try {
      data = text ? JSON.parse(text) : undefined;
    } catch {
      data = undefined;
    }
    if (!response.ok) {
      const detail = (data as { error?: { code?: string; description?: string } } | undefined)?.error;
      throw new GatewayError(
        `Razorpay ${method} ${path} failed with ${response.status}: ${detail?.description ?? (text.slice(0, 200) || 'no body')}`,
        response.status,
        detail?.code,
      );
    }
    if (data === undefined) throw new GatewayError(`Razorpay ${method} ${path} answered without JSON`, 502);
    return data as T;
  }
}

/**
 * Where the gateway talks to: RAZORPAY_API_URL whenever it is set (any keys), else the built-in emulator when
 * no keys are configured, else Razorpay itself.
 */
export function gatewayApiUrl(config: Config): string {
  if (config.razorpay.apiUrl) return config.razorpay.apiUrl;
  if (config.razorpay.emulated && !config.isProduction) return `${config.publicUrl}${EMULATOR_PREFIX}`;
  return RAZORPAY_API_URL;
}

export const createGateway = (config: Config): RazorpayGateway =>
  new RazorpayGateway({
    keyId: config.razorpay.keyId,
    keySecret: config.razorpay.keySecret,
    apiUrl: gatewayApiUrl(config),
  });

declare module '../kernel/context' {
  interface AppContext {
    gateway: RazorpayGateway;
  }
}
