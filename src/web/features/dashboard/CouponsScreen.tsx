import { useEffect, useState } from 'react';
import { Link } from 'wouter';
import { type CouponSummary, describeCouponValue } from '../../../shared/coupons';
import type { OverviewResponse } from '../../../shared/dashboard';
import { formatSubunits } from '../../../shared/money';
import { FormError } from '../../components/form';
import { announce } from '../../lib/announce';
import { dashboardApi } from './api';
import { CouponForm } from './CouponForm';
import { DataTable } from './DataTable';
import { ScreenLink } from './links';
import { ActionNotice, Card, formatDateTime, ScreenTitle, StatusBadge, useScreenTitle } from './ui';
import { useDashboardData } from './useDashboardData';

/** How much a coupon has been used: '3 used + 1 held of 10'. */
export const uses = (coupon: CouponSummary) =>
  `${coupon.used} used${coupon.reserved ? ` + ${coupon.reserved} held` : ''}${coupon.maxUses === null ? '' : ` of ${coupon.maxUses}`}`;

const COLUMNS = [
  {
    key: 'code',
    label: 'Code',
    render: (coupon: CouponSummary) => (
      <ScreenLink to={`/admin/coupons/${encodeURIComponent(coupon.code)}`}>{coupon.code}</ScreenLink>
    ),
  },
  { key: 'value', label: 'Discount', render: (coupon: CouponSummary) => describeCouponValue(coupon) },
  {
    key: 'tools',
    label: 'Tools',
    render: (coupon: CouponSummary) =>
      coupon.toolIds.length === 0 ? 'All' : `${coupon.toolIds.length} listed`,
  },
  {
    key: 'ends',
    label: 'Ends',
    render: (coupon: CouponSummary) => (coupon.endsAt ? formatCouponEnd(coupon.endsAt) : 'Never'),
  },
  { key: 'uses', label: 'Uses', render: uses },
  { key: 'state', label: 'State', render: (coupon: CouponSummary) => <StatusBadge status={coupon.state} /> },
];

/**
 * A coupon's end as the operator set it: an end date includes its whole day, so it is stored as the next midnight in
 * India (shared/coupons.ts couponEnd) and shown as that last day, '31 Dec 2026'; an end with a time shows the time.
 */
export function formatCouponEnd(iso: string): string {
  const end = new Date(iso);
  const time = end.toLocaleTimeString('en-GB', {
    timeZone: 'Asia/Kolkata',
    hour: '2-digit',
    minute: '2-digit',
  });
  if (time !== '00:00') return formatDateTime(iso);
  return new Date(end.getTime() - 1).toLocaleDateString('en-IN', {
    timeZone: 'Asia/Kolkata',
    day: 'numeric',
    month: 'short',
    year: 'numeric',
  });
}

/** Every coupon with its uses, and the form that makes a new one. */
export function CouponsScreen() {
  useScreenTitle('Coupons');
  const list = useDashboardData(() => dashboardApi.coupons(), 'coupons');
  const tools = useDashboardData(
    () => dashboardApi.tools({ page: 1, pageSize: 100, sort: 'name', dir: 'asc' }),
    'tools',
  );
  const [notice, setNotice] = useState<string | null>(null);
  /** A coupon just created: once listed, its row's link takes focus (the form's button is far below it). */
  const [createdCode, setCreatedCode] = useState<string | null>(null);
  const create = async (input: Parameters<typeof dashboardApi.createCoupon>[0]) => {
    const created = await dashboardApi.createCoupon(input);
    setNotice(`Coupon ${created.code} created.`);
    setCreatedCode(created.code);
    list.reload();
    return created;
  };
  useEffect(() => {
    if (!createdCode || !list.data?.some((coupon) => coupon.code === createdCode)) return;
    setCreatedCode(null);
    const link = document.querySelector<HTMLElement>(
      `a[href="/admin/coupons/${encodeURIComponent(createdCode)}"]`,
    );
    link?.focus();
    link?.scrollIntoView({ block: 'center' });
    announce(`Coupon ${createdCode} created. It is listed in the table.`);
  }, [createdCode, list.data]);
  return (
    <>
      <ScreenTitle title="Coupons" />
      <FormError message={list.error ?? tools.error} />
      <ActionNotice message={notice} />
      <div className="grid gap-4">
        {list.data && (
          <DataTable
            caption="Coupons"
            columns={COLUMNS}
            rows={list.data}
            rowKey={(row) => row.id}
            empty="No coupons yet."
          />
        )}
        <Card title="New coupon">
          <CouponForm tools={tools.data?.items ?? []} onCreate={create} />
        </Card>
      </div>
    </>
  );
}

/** The Overview's line on coupons: paid orders of the last 30 days priced with one, and what they took off. */
export function CouponsOverviewCard({ figures }: { figures: OverviewResponse['coupons'] }) {
  return (
    <Card title="Coupons, last 30 days">
      <p className="text-sm text-slate-700">
        <strong className="text-lg tabular-nums text-slate-900">{figures.orders}</strong> paid{' '}
        {figures.orders === 1 ? 'order' : 'orders'} with a coupon; discount given{' '}
        <span className="tabular-nums">{formatSubunits(figures.discount.INR, 'INR')}</span> ·{' '}
        <span className="tabular-nums">{formatSubunits(figures.discount.USD, 'USD')}</span>.{' '}
        <Link to="/admin/coupons" className="text-brand-700 underline underline-offset-2">
          Coupons
        </Link>
      </p>
    </Card>
  );
}
