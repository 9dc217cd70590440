import { type CouponDetail, describeCouponValue } from '../../../shared/coupons';
import { formatSubunits } from '../../../shared/money';
import { Button, FormError } from '../../components/form';
import { useAction } from '../../components/form/useAction';
import { dashboardApi, problem } from './api';
import { formatCouponEnd, uses } from './CouponsScreen';
import { DataTable } from './DataTable';
import { BackLink, ScreenLink } from './links';
import { Card, customerEmail, formatDateTime, ScreenTitle, StatusBadge, useScreenTitle } from './ui';
import { useDashboardData, useRecordId } from './useDashboardData';

const Revenue = ({ detail }: { detail: CouponDetail }) =>
  detail.revenue.length === 0 ? (
    <p className="text-sm text-slate-700">No paid order has used it yet.</p>
  ) : (
    <dl className="grid gap-3 sm:grid-cols-2">
      {detail.revenue.map((entry) => (
        <div key={entry.currency} className="rounded-lg bg-slate-50 p-3">
          <dt className="text-sm text-slate-700">
            {entry.orders} paid {entry.orders === 1 ? 'order' : 'orders'} in {entry.currency}
          </dt>
          <dd className="text-lg font-semibold tabular-nums text-slate-900">
            {formatSubunits(entry.paid, entry.currency)} received
          </dd>
          <dd className="text-sm tabular-nums text-slate-700">
            {formatSubunits(entry.discount, entry.currency)} given as discount
          </dd>
        </div>
      ))}
    </dl>
  );

const USE_COLUMNS = [
  {
    key: 'order',
    label: 'Order',
    render: (use: CouponDetail['uses'][number]) => (
      <ScreenLink to={`/admin/orders/${use.orderId}`}>{formatDateTime(use.createdAt)}</ScreenLink>
    ),
  },
  { key: 'buyer', label: 'Buyer', render: (use: CouponDetail['uses'][number]) => customerEmail(use.email) },
  { key: 'tool', label: 'Tool', render: (use: CouponDetail['uses'][number]) => use.toolName },
  {
    key: 'price',
    label: 'List price',
    render: (use: CouponDetail['uses'][number]) => formatSubunits(use.listPrice, use.currency),
  },
  {
    key: 'discount',
    label: 'Discount',
    render: (use: CouponDetail['uses'][number]) => formatSubunits(use.discount, use.currency),
  },
  {
    key: 'paid',
    label: 'Paid',
    render: (use: CouponDetail['uses'][number]) => formatSubunits(use.paid, use.currency),
  },
  {
    key: 'state',
    label: 'Use',
    render: (use: CouponDetail['uses'][number]) => <StatusBadge status={use.state} />,
  },
];

/** One coupon: its terms, each order that took it, the revenue it brought, and Disable. */
export function CouponScreen() {
  const code = useRecordId();
  useScreenTitle(`Coupon ${code}`);
  const detail = useDashboardData(() => dashboardApi.coupon(code), code);
  const { run, busy, error } = useAction(problem);
  const coupon = detail.data;
  const disable = () =>
    run(async () => {
      await dashboardApi.disableCoupon(code);
      detail.reload();
      return `Coupon ${code} is disabled.`;
    });
  return (
    <>
      <BackLink to="/admin/coupons">Coupons</BackLink>
      <ScreenTitle title={`Coupon ${code}`}>
        {coupon && !coupon.disabledAt && (
          <Button variant="secondary" busy={busy} onClick={disable}>
            Disable
          </Button>
        )}
      </ScreenTitle>
      <FormError message={detail.error ?? error} />
      {coupon && (
        <div className="grid gap-4">
          <div className="grid gap-4 lg:grid-cols-2">
            <Card title="Terms">
              <dl className="grid grid-cols-[auto_1fr] gap-x-4 gap-y-1 text-sm">
                <dt className="text-slate-700">Discount</dt>
                <dd>{describeCouponValue(coupon)}</dd>
                <dt className="text-slate-700">Tools</dt>
                <dd>{coupon.toolIds.length === 0 ? 'All' : `${coupon.toolIds.length} listed`}</dd>
                <dt className="text-slate-700">Starts</dt>
                <dd>{coupon.startsAt ? formatDateTime(coupon.startsAt) : 'At once'}</dd>
                <dt className="text-slate-700">Ends</dt>
                <dd>{coupon.endsAt ? formatCouponEnd(coupon.endsAt) : 'Never'}</dd>
                <dt className="text-slate-700">Uses</dt>
                <dd>{uses(coupon)}</dd>
                <dt className="text-slate-700">Per buyer</dt>
                <dd>{coupon.reusable ? 'Any number of times' : 'Once'}</dd>
                <dt className="text-slate-700">State</dt>
                <dd>
                  <StatusBadge status={coupon.state} />
                </dd>
                <dt className="text-slate-700">Created</dt>
                <dd>
                  {formatDateTime(coupon.createdAt)} by {coupon.createdBy}
                </dd>
              </dl>
            </Card>
            <Card title="Revenue">
              <Revenue detail={coupon} />
            </Card>
          </div>
          <DataTable
            caption={`Uses of ${coupon.code}`}
            columns={USE_COLUMNS}
            rows={coupon.uses}
            rowKey={(use) => use.orderId}
            empty="Not used yet."
          />
        </div>
      )}
    </>
  );
}
