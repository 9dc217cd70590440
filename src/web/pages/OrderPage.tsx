import { Link } from 'wouter';
import { OrderView } from '../features/shop/OrderPage';
import { RefundRequestPanel } from '../features/shop/RefundRequestPanel';
import { ToolsLayout } from '../layout/ToolsLayout';

/** /my-tools/orders/<orderId>: one of the buyer's orders (decision 044). */
export default function OrderPage() {
  return (
    <ToolsLayout>
      <div className="border-b border-slate-200 bg-gradient-to-b from-brand-50 to-white">
        <div className="mx-auto max-w-6xl px-5 pt-10 pb-8 sm:px-6 md:pt-14">
          <p className="text-sm">
            <Link href="/my-tools" className="font-medium text-brand-700 underline underline-offset-2">
              My Tools
            </Link>
          </p>
          <h1 className="mt-3 text-3xl font-bold tracking-tight text-brand-900 sm:text-4xl">Your order</h1>
        </div>
      </div>
      <div className="mx-auto max-w-6xl px-5 py-10 sm:px-6 md:py-12">
        <OrderView>{(order, reload) => <RefundRequestPanel order={order} onChanged={reload} />}</OrderView>
      </div>
    </ToolsLayout>
  );
}
