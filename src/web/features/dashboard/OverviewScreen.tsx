import { Link } from 'wouter';
import type { OverviewResponse, PeriodFigures } from '../../../shared/dashboard';
import { formatSubunits } from '../../../shared/money';
import { FormError } from '../../components/form';
import { dashboardApi } from './api';
import { CouponsOverviewCard } from './CouponsScreen';
import { Inbox, MailWarning, Reply, RotateCw } from './icons';
import { SalesChart } from './SalesChart';
import { TrialFiguresList } from './TrialsPanel';
import { Card, ScreenTitle, useScreenTitle } from './ui';
import { useDashboardData } from './useDashboardData';

const PERIODS: Array<{ key: keyof OverviewResponse['periods']; label: string }> = [
  { key: 'today', label: 'Today' },
  { key: 'last7Days', label: 'Last 7 days' },
  { key: 'last30Days', label: 'Last 30 days' },
];

function PeriodCard({ label, figures }: { label: string; figures: PeriodFigures }) {
  return (
    <Card title={label}>
      <dl className="grid grid-cols-3 gap-3 text-sm">
        {[
          ['Orders', figures.orders],
          ['INR', formatSubunits(figures.revenue.INR, 'INR')],
          ['USD', formatSubunits(figures.revenue.USD, 'USD')],
        ].map(([name, value]) => (
          <div key={name}>
            <dt className="text-slate-600">{name}</dt>
            <dd className="mt-1 text-xl font-semibold text-slate-900 tabular-nums">{value}</dd>
          </div>
        ))}
      </dl>
    </Card>
  );
}

/** Sales at a glance (paid orders, refunds taken out) and what is waiting for the operator. */
export function OverviewScreen() {
  useScreenTitle('Overview');
  const { data, error } = useDashboardData(dashboardApi.overview, 'overview');
  return (
    <>
      <ScreenTitle title="Overview" />
      <FormError message={error} />
      {data && (
        <div className="space-y-5">
          <div className="grid gap-4 lg:grid-cols-3">
            {PERIODS.map((period) => (
              <PeriodCard key={period.key} label={period.label} figures={data.periods[period.key]} />
            ))}
          </div>
          <div className="grid gap-4 lg:grid-cols-3">
            <Card title="Daily sales, last 30 days" className="min-w-0 lg:col-span-2">
              <SalesChart daily={data.daily} />
            </Card>
            <Card title="Open items">
              <ul className="space-y-3 text-sm">
                <OpenItem icon={Inbox} tone="text-brand-700" to="/admin/messages" label="Unhandled messages">
                  {data.openItems.unhandledMessages}
                </OpenItem>
                <OpenItem icon={MailWarning} tone="text-red-700" to="/admin/mail" label="Failed mail">
                  {data.openItems.failedMail}
                </OpenItem>
                <OpenItem icon={RotateCw} tone="text-amber-700" to="/admin/mail" label="Mail being retried">
                  {data.openItems.retryingMail}
                </OpenItem>
                <OpenItem
                  icon={Reply}
                  tone="text-brand-700"
                  to="/admin/refund-requests"
                  label="Refund requests to answer"
                >
                  {data.openItems.openRefundRequests}
                </OpenItem>
              </ul>
            </Card>
          </div>
          <CouponsOverviewCard figures={data.coupons} />
          <Card title="Recovered checkouts, last 30 days">
            <p className="text-sm text-slate-700">
              <strong className="text-lg tabular-nums text-slate-900">
                {data.recoveredCheckouts.orders}
              </strong>{' '}
              paid {data.recoveredCheckouts.orders === 1 ? 'order' : 'orders'} after a checkout reminder,
              worth{' '}
              <span className="tabular-nums">{formatSubunits(data.recoveredCheckouts.value.INR, 'INR')}</span>{' '}
              ·{' '}
              <span className="tabular-nums">{formatSubunits(data.recoveredCheckouts.value.USD, 'USD')}</span>
              .
            </p>
          </Card>
          <Card title="Free trials, every tool">
            <TrialFiguresList figures={data.trials} />
          </Card>
        </div>
      )}
    </>
  );
}

/** One line of the open items: what waits, a link to the screen that handles it, and how many. */
function OpenItem({
  icon: ItemIcon,
  tone,
  to,
  label,
  children,
}: {
  icon: typeof Inbox;
  tone: string;
  to: string;
  label: string;
  children: number;
}) {
  return (
    <li className="flex items-center gap-3">
      <ItemIcon className={`size-5 ${tone}`} aria-hidden="true" />
      <Link to={to} className="flex-1 text-brand-700 underline underline-offset-2">
        {label}
      </Link>
      <strong className="text-lg tabular-nums">{children}</strong>
    </li>
  );
}
