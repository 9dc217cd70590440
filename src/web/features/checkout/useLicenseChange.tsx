import { lazy, type ReactNode, Suspense, useRef, useState } from 'react';
import { flushSync } from 'react-dom';
import type { LicenseRenewal, LicenseUpgrade, MyLicense } from '../../../shared/licenses';
import { formatSubunits } from '../../../shared/money';
import type { BillingDetails, PurchasedTool } from '../../../shared/shop';
import { periodText } from '../../../shared/update-periods';
import { toolTitle } from '../../components/tools/toolTitle';
import type { BillingDraft } from '../../lib/purchase-intent';
import type { LicenseChange, OrderChoice } from './types';
import { useLicenseOrder } from './useLicenseOrder';

const BillingModal = lazy(() =>
  import('./BillingModal').then((module) => ({ default: module.BillingModal })),
);

/** What My Tools offers on a license: an upgrade to a higher edition, or another period of updates. */
export type LicenseOffer = { upgrade: LicenseUpgrade } | { renewal: LicenseRenewal };

const changeOf = (license: MyLicense, offer: LicenseOffer): LicenseChange =>
  'upgrade' in offer
    ? { upgradeLicenseId: license.licenseId, editionId: offer.upgrade.editionId }
    : { renewLicenseId: license.licenseId };

const priceOf = (offer: LicenseOffer) => ('upgrade' in offer ? offer.upgrade : offer.renewal);

/**
 * An upgrade of one of the buyer's licenses to a higher edition of its tool (decision 056), or a renewal of its
 * updates (decision 059): `open` opens the billing dialog for it, priced by the server for all the license's seats
 * (the difference of today's list prices, or the renewal price; the quote and the payment name the license, not the
 * tool), in the license's currency; a coupon applies as to any order. The page that shows the offer gives
 * `onPurchased` (the licenses are read again) and `returnFocus`, the button of the offer opened; it draws `dialog`.
 */
export function useLicenseChange({
  tool,
  license,
  onPurchased,
  returnFocus,
}: {
  tool: Pick<PurchasedTool, '_id' | 'name' | 'device'>;
  license: MyLicense;
  onPurchased: () => void;
  returnFocus: (offer: LicenseOffer) => HTMLElement | null;
}): { open: (offer: LicenseOffer) => void; dialog: ReactNode } {
  const [buying, setBuying] = useState<LicenseOffer | null>(null);
  // The dialog stays mounted once opened, so that closing it returns focus the way every dialog does.
  const [shown, setShown] = useState<LicenseOffer | null>(null);
  // The offer last opened, whose button focus goes back to (the checkout window may close after the dialog).
  const last = useRef<LicenseOffer | null>(null);
  const backToOffer = () => (last.current ? returnFocus(last.current) : null);
  const { purchase, draft, keepDraft } = useLicenseOrder({
    toolId: tool._id,
    onPurchased,
    returnFocus: backToOffer,
  });

  const open = (offer: LicenseOffer) => {
    last.current = offer;
    setShown(offer);
    setBuying(offer);
  };

  const proceed = async (billing: BillingDetails, typed: BillingDraft, order: OrderChoice) => {
    if (!buying) return;
    keepDraft(typed);
    await purchase(tool, priceOf(buying).currency, billing, () => flushSync(() => setBuying(null)), {
      couponCode: order.couponCode,
      ...changeOf(license, buying),
    });
  };

  const dialog = shown && (
    <Suspense fallback={null}>
      <BillingModal
        open={buying !== null}
        currency={priceOf(shown).currency}
        change={buying ? changeOf(license, buying) : undefined}
        draft={draft()}
        onDraftChange={keepDraft}
        summary={
          <>
            <div className="flex items-baseline justify-between gap-4">
              <span className="font-medium text-brand-900">
                {toolTitle(tool)}:{' '}
                {'upgrade' in shown
                  ? `${license.edition?.name} → ${shown.upgrade.name}`
                  : `updates for ${periodText(shown.renewal.months)}`}
              </span>
              <span className="shrink-0 font-semibold text-brand-900">
                {formatSubunits(priceOf(shown).amount, priceOf(shown).currency)}
              </span>
            </div>
            <p className="mt-1 text-slate-600">
              {'upgrade' in shown
                ? `The same key on the same computers${
                    shown.upgrade.entitlements.length ? `, with ${shown.upgrade.entitlements.join(', ')}` : ''
                  }.`
                : 'The same key: every version released until the new end installs with it.'}
            </p>
          </>
        }
        onCancel={() => setBuying(null)}
        onSubmit={proceed}
        returnFocus={backToOffer}
      />
    </Suspense>
  );
  return { open, dialog };
}
