import { lazy, type ReactNode, Suspense, useState } from 'react';
import { flushSync } from 'react-dom';
import type { LicenseUpgrade, MyLicense } from '../../../shared/licenses';
import { formatSubunits } from '../../../shared/money';
import type { BillingDetails, PurchasedTool } from '../../../shared/shop';
import { toolTitle } from '../../components/tools/toolTitle';
import type { BillingDraft } from '../../lib/purchase-intent';
import type { OrderChoice } from './types';
import { useLicenseOrder } from './useLicenseOrder';

const BillingModal = lazy(() =>
  import('./BillingModal').then((module) => ({ default: module.BillingModal })),
);

/**
 * An upgrade of one of the buyer's licenses to a higher edition of its tool (decision 056): `open` opens the billing
 * dialog for it, priced by the server as the difference of today's list prices for all the license's seats (the
 * quote and the payment name the license and the edition, not the tool), in the license's currency; a coupon applies
 * as to any order. The page that shows the offer gives `onPurchased` (the licenses are read again) and `returnFocus`,
 * the offer's button; it draws `dialog`.
 */
export function useUpgrade({
  tool,
  license,
  onPurchased,
  returnFocus,
}: {
  tool: Pick<PurchasedTool, '_id' | 'name' | 'device'>;
  license: MyLicense;
  onPurchased: () => void;
  returnFocus: () => HTMLElement | null;
}): { open: (upgrade: LicenseUpgrade) => void; dialog: ReactNode } {
  const [upgrading, setUpgrading] = useState<LicenseUpgrade | null>(null);
  // The dialog stays mounted once opened, so that closing it returns focus the way every dialog does.
  const [shown, setShown] = useState<LicenseUpgrade | null>(null);
  const { purchase, draft, keepDraft } = useLicenseOrder({ toolId: tool._id, onPurchased, returnFocus });

  const open = (upgrade: LicenseUpgrade) => {
    setShown(upgrade);
    setUpgrading(upgrade);
  };

  const proceed = async (billing: BillingDetails, typed: BillingDraft, order: OrderChoice) => {
    if (!upgrading) return;
    keepDraft(typed);
    await purchase(tool, upgrading.currency, billing, () => flushSync(() => setUpgrading(null)), {
      couponCode: order.couponCode,
      upgradeLicenseId: license.licenseId,
      editionId: upgrading.editionId,
    });
  };

  const dialog = shown && (
    <Suspense fallback={null}>
      <BillingModal
        open={upgrading !== null}
        currency={shown.currency}
        upgrade={upgrading ? { licenseId: license.licenseId, editionId: upgrading.editionId } : undefined}
        draft={draft()}
        onDraftChange={keepDraft}
        summary={
          <>
            <div className="flex items-baseline justify-between gap-4">
              <span className="font-medium text-brand-900">
                {toolTitle(tool)}: {license.edition?.name} → {shown.name}
              </span>
              <span className="shrink-0 font-semibold text-brand-900">
                {formatSubunits(shown.amount, shown.currency)}
              </span>
            </div>
            <p className="mt-1 text-slate-600">
              The same key on the same computers
              {shown.entitlements.length ? `, with ${shown.entitlements.join(', ')}` : ''}.
            </p>
          </>
        }
        onCancel={() => setUpgrading(null)}
        onSubmit={proceed}
        returnFocus={returnFocus}
      />
    </Suspense>
  );
  return { open, dialog };
}
