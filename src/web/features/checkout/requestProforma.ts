import type { Currency } from '../../../shared/constants';
import { orderPagePath } from '../../../shared/order-detail';
import type { BillingDetails } from '../../../shared/shop';
import { toast } from '../../components/ToastHost';
import { checkoutApi } from './api';
import type { OrderChoice } from './types';

/** POST /api/checkout/proforma for what the billing form holds; answers the new order's page. */
export async function requestProforma(
  request: {
    toolId: string;
    currency: Currency;
    billing: BillingDetails;
    order: OrderChoice & { teamLicenseId?: string };
  },
  beforeLeave: () => void,
): Promise<string> {
  const { order } = request;
  const answer = await checkoutApi.proforma({
    toolId: request.toolId,
    currency: request.currency,
    billingDetails: request.billing,
    seats: order.seats,
    tds: order.tds ?? false,
    ...(order.pan ? { pan: order.pan } : {}),
    ...(order.couponCode ? { couponCode: order.couponCode } : {}),
    ...(order.teamLicenseId ? { teamLicenseId: order.teamLicenseId } : {}),
  });
  beforeLeave();
  toast.success(`Proforma invoice ${answer.proformaNumber} is on its way to your email.`);
  return orderPagePath(answer.orderId);
}
