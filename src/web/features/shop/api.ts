import type { z } from 'zod';
import type { BillingCorrectionAnswer, BillingCorrectionInput } from '../../../shared/billing-correction';
import type { CheckoutQuote, CheckoutQuoteRequest } from '../../../shared/checkout-quote';
import type { CheckoutOpenedRequest } from '../../../shared/checkout-recovery';
import type { LocationResponse } from '../../../shared/currency';
import type { OrderDetail } from '../../../shared/order-detail';
import type { OrderSummary } from '../../../shared/order-history';
import type { RefundRequestInput, RefundRequestView } from '../../../shared/refund-requests';
import type {
  CreatePaymentRequest,
  CreatePaymentResponse,
  PaymentsConfigResponse,
  PurchasedTool,
  StatusResponse,
  Tool,
  VerifyPaymentRequest,
} from '../../../shared/shop';
import type { sendCredentialsSchema, startTrialSchema } from '../../../shared/shop-schemas';
import type { StartTrialResponse } from '../../../shared/trials';
import { api } from '../../lib/api';

/** The shop's calls (docs/product.md §7), typed by the shared contract. */
export const shopApi = {
  location: () => api.get<LocationResponse>('/api/get-location/'),
  tools: () => api.get<Tool[]>('/api/alltools/'),
  myTools: () => api.get<PurchasedTool[]>('/api/my-tools/'),
  orders: () => api.get<OrderSummary[]>('/api/orders/'),
  order: (orderId: string) => api.get<OrderDetail>(`/api/orders/${encodeURIComponent(orderId)}`),
  requestRefund: (orderId: string, body: RefundRequestInput) =>
    api.post<RefundRequestView>(`/api/orders/${encodeURIComponent(orderId)}/refund-request`, body),
  correctBilling: (orderId: string, body: BillingCorrectionInput) =>
    api.post<BillingCorrectionAnswer>(`/api/orders/${encodeURIComponent(orderId)}/billing`, body),
  paymentsConfig: () => api.get<PaymentsConfigResponse>('/api/payments/config/'),
  createPayment: (body: CreatePaymentRequest) =>
    api.post<CreatePaymentResponse>('/api/create-payment/', body),
  quote: (body: CheckoutQuoteRequest) => api.post<CheckoutQuote>('/api/checkout/quote', body),
  verifyPayment: (body: VerifyPaymentRequest) => api.post<StatusResponse>('/api/verify-payment/', body),
  sendCredentials: (body: z.input<typeof sendCredentialsSchema>) =>
    api.post<StatusResponse>('/api/send-tool-credentials/', body),
  startTrial: (body: z.input<typeof startTrialSchema>) => api.post<StartTrialResponse>('/api/trials/', body),
  /** Remembered for checkout recovery: the buyer is reminded if no payment follows. */
  checkoutOpened: (body: CheckoutOpenedRequest) =>
    api.post<{ recorded: boolean }>('/api/checkout/opened', body),
};
