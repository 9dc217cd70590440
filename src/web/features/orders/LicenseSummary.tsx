import { type ComponentType, Suspense } from 'react';
import { Link } from 'wouter';
import type { OrderDetail } from '../../../shared/order-detail';
import { Panel, when } from './Panel';

const LICENSE_LABELS = {
  active: 'Active',
  trial: 'Trial',
  suspended: 'Suspended',
  revoked: 'Revoked',
} as const;

/**
 * A license's edition and its upgrades (issue 64), which the page gives (they are My Tools' and the checkout's); it
 * loads on demand, only for a license of a tool with editions.
 */
export type LicenseEditionSlot = ComponentType<{ licenseId: string }>;

/** The order's license: its status, edition and the devices it runs on, which My Tools manages. */
export function LicenseSummary({
  license,
  edition: Edition,
}: {
  license: OrderDetail['license'];
  edition?: LicenseEditionSlot;
}) {
  return (
    <Panel title="License">
      {license ? (
        <>
          <p className="text-sm">
            Status: <strong>{LICENSE_LABELS[license.status]}</strong>
          </p>
          {license.edition && Edition && (
            <div className="mt-2">
              <Suspense fallback={null}>
                <Edition licenseId={license.id} />
              </Suspense>
            </div>
          )}
          {license.devices.length === 0 ? (
            <p className="mt-2 text-sm text-slate-600">Not activated on any device yet.</p>
          ) : (
            <ul className="mt-2 space-y-1 text-sm">
              {license.devices.map((device) => (
                <li key={`${device.name}-${device.activatedAt}`}>
                  <span className="font-medium">{device.name}</span>{' '}
                  <span className="text-slate-600">since {when(device.activatedAt)}</span>
                </li>
              ))}
            </ul>
          )}
          <p className="mt-3 text-sm">
            <Link href="/my-tools" className="font-medium text-brand-700 underline underline-offset-2">
              Manage devices in My Tools
            </Link>
          </p>
        </>
      ) : (
        <p className="text-sm text-slate-600">No license on this order.</p>
      )}
    </Panel>
  );
}
