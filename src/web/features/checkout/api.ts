import type { CheckoutQuote, CheckoutQuoteRequest } from '../../../shared/checkout-quote';
import type { CheckoutOpenedRequest } from '../../../shared/checkout-recovery';
import type { ProformaAnswer } from '../../../shared/proforma';
import type {
  CreatePaymentRequest,
  CreatePaymentResponse,
  PaymentsConfigResponse,
  StatusResponse,
  VerifyPaymentRequest,
} from '../../../shared/shop';
import type { ProformaRequest } from '../../../shared/shop-schemas';
import { api } from '../../lib/api';

/** The checkout's calls (docs/product.md §7), typed by the shared contract. */
export const checkoutApi = {
  paymentsConfig: () => api.get<PaymentsConfigResponse>('/api/payments/config/'),
  quote: (body: CheckoutQuoteRequest) => api.post<CheckoutQuote>('/api/checkout/quote', body),
  createPayment: (body: CreatePaymentRequest) =>
    api.post<CreatePaymentResponse>('/api/create-payment/', body),
  /** A proforma invoice instead of paying now (issue 68). */
  proforma: (body: ProformaRequest) => api.post<ProformaAnswer>('/api/checkout/proforma', body),
  verifyPayment: (body: VerifyPaymentRequest) => api.post<StatusResponse>('/api/verify-payment/', body),
  /** Remembered for checkout recovery: the buyer is reminded if no payment follows. */
  checkoutOpened: (body: CheckoutOpenedRequest) =>
    api.post<{ recorded: boolean }>('/api/checkout/opened', body),
};
