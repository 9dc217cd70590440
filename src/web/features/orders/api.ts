import type { BillingCorrectionAnswer, BillingCorrectionInput } from '../../../shared/billing-correction';
import type { OrderDetail } from '../../../shared/order-detail';
import type { OrderHistoryOrder } from '../../../shared/order-history';
import type { RefundRequestInput, RefundRequestView } from '../../../shared/refund-requests';
import { api } from '../../lib/api';

const order = (orderId: string) => `/api/orders/${encodeURIComponent(orderId)}`;

/** The buyer's orders (decision 044): the history on My Tools, an order's page and what it offers. */
export const ordersApi = {
  orders: () => api.get<OrderHistoryOrder[]>('/api/orders/'),
  order: (orderId: string) => api.get<OrderDetail>(order(orderId)),
  requestRefund: (orderId: string, body: RefundRequestInput) =>
    api.post<RefundRequestView>(`${order(orderId)}/refund-request`, body),
  correctBilling: (orderId: string, body: BillingCorrectionInput) =>
    api.post<BillingCorrectionAnswer>(`${order(orderId)}/billing`, body),
  /** The buyer's Form 16A for an order it deducts TDS from (issue 68): one PDF, as multipart form data. */
  uploadTdsCertificate: (orderId: string, file: File) => {
    const body = new FormData();
    body.append('file', file);
    return api.post<{ message: string; fileName: string; uploadedAt: string }>(
      `${order(orderId)}/tds-certificate`,
      body,
    );
  },
};
