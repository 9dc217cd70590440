import type { OrderSummary } from '../../../shared/order-history';
import type {
  CreatePaymentRequest,
  CreatePaymentResponse,
  PaymentsConfigResponse,
  PurchasedTool,
  StatusResponse,
  Tool,
  VerifyPaymentRequest,
} from '../../../shared/shop';
import { api } from '../../lib/api';

/** The shop's calls (spec §7), typed by the shared contract. */
export const shopApi = {
  tools: () => api.get<Tool[]>('/api/alltools/'),
  myTools: () => api.get<PurchasedTool[]>('/api/my-tools/'),
  orders: () => api.get<OrderSummary[]>('/api/orders/'),
  paymentsConfig: () => api.get<PaymentsConfigResponse>('/api/payments/config/'),
  createPayment: (body: CreatePaymentRequest) =>
    api.post<CreatePaymentResponse>('/api/create-payment/', body),
  verifyPayment: (body: VerifyPaymentRequest) => api.post<StatusResponse>('/api/verify-payment/', body),
  sendCredentials: (toolId: string) => api.post<StatusResponse>('/api/send-tool-credentials/', { toolId }),
};
