import type { OrderSummary } from '../../../shared/order-history';
import { api } from '../../lib/api';

/** The buyer's order history, typed by the shared contract. */
export const ordersApi = {
  list: () => api.get<OrderSummary[]>('/api/orders/'),
};
