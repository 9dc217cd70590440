import type { CheckoutQuote, CheckoutQuoteRequest } from '../../../shared/checkout-quote';
import type { CheckoutOpenedRequest } from '../../../shared/checkout-recovery';
import type {
  CreatePaymentRequest,
  CreatePaymentResponse,
  PaymentsConfigResponse,
  StatusResponse,
  VerifyPaymentRequest,
} from '../../../shared/shop';
import { api } from '../../lib/api';

/** The checkout's calls (docs/product.md §7), typed by the shared contract. */
export const checkoutApi = {
  paymentsConfig: () => api.get<PaymentsConfigResponse>('/api/payments/config/'),
  quote: (body: CheckoutQuoteRequest) => api.post<CheckoutQuote>('/api/checkout/quote', body),
  createPayment: (body: CreatePaymentRequest) =>
    api.post<CreatePaymentResponse>('/api/create-payment/', body),
  verifyPayment: (body: VerifyPaymentRequest) => api.post<StatusResponse>('/api/verify-payment/', body),
  /** Remembered for checkout recovery: the buyer is reminded if no payment follows. */
  checkoutOpened: (body: CheckoutOpenedRequest) =>
    api.post<{ recorded: boolean }>('/api/checkout/opened', body),
};
