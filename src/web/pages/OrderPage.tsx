import { lazy } from 'react';
import { OrderView } from '../features/orders/OrderView';
import { RefundRequestPanel } from '../features/orders/RefundRequestPanel';
import { MyToolsSubpage } from './MyToolsSubpage';

/** The license's edition and upgrades (issue 64) load only for a license of a tool with editions. */
const LicenseEdition = lazy(() => import('./OrderLicenseOffers'));

/** /my-tools/orders/<orderId>: one of the buyer's orders (decision 044). */
export default function OrderPage() {
  return (
    <MyToolsSubpage
      title="Your order"
      intro="What you ordered and paid, its invoice and licenses, and where to ask for a correction or a refund."
    >
      <OrderView licenseEdition={LicenseEdition}>
        {(order, reload) => <RefundRequestPanel order={order} onChanged={reload} />}
      </OrderView>
    </MyToolsSubpage>
  );
}
