import { lazy, type ReactNode, Suspense, useState } from 'react';
import { flushSync } from 'react-dom';
import type { Currency } from '../../../shared/constants';
import { detectCurrency } from '../../../shared/currency';
import { displayPrice, formatPrice } from '../../../shared/money';
import type { BillingDetails, PurchasedTool, Tool } from '../../../shared/shop';
import { toast } from '../../components/ToastHost';
import { toolTitle } from '../../components/tools/toolTitle';
import { type BillingDraft, chosenCurrency, rememberBillingDraft } from '../../lib/purchase-intent';
import { shopApi } from '../../lib/shop-api';
import type { OrderChoice } from './types';
import { useLicenseOrder } from './useLicenseOrder';
import { useProforma } from './useProforma';

const BillingModal = lazy(() =>
  import('./BillingModal').then((module) => ({ default: module.BillingModal })),
);

/** What "Add seats" buys: the catalogue's entry of the tool (its prices) in the currency the buyer sees. */
type AddSeats = { tool: Tool; currency: Currency };

/**
 * "Add seats" to a team license the buyer owns (issue 54): `open` reads the tool's prices from the catalogue and
 * opens the billing dialog for the same tool, whose order adds its seats to the team (its own order and invoice).
 * The team panel's page joins it to the panel: it gives the team's `seats` now (no dialog until they are known),
 * `onPurchased` (the team is read again) and `returnFocus`, the panel's button; it draws `dialog`.
 */
export function useAddSeats({
  tool,
  licenseId,
  seats,
  onPurchased,
  returnFocus,
}: {
  tool: PurchasedTool;
  licenseId: string;
  seats: number | undefined;
  onPurchased: () => void;
  returnFocus: () => HTMLElement | null;
}): { opening: boolean; open: () => void; dialog: ReactNode } {
  const [adding, setAdding] = useState<AddSeats | null>(null);
  // The billing dialog stays mounted once opened, so that closing it returns focus the way every dialog does.
  const [shown, setShown] = useState<AddSeats | null>(null);
  const [opening, setOpening] = useState(false);

  const { purchase, draft, keepDraft } = useLicenseOrder({ toolId: tool._id, onPurchased, returnFocus });

  const openAddSeats = async () => {
    if (opening) return;
    setOpening(true);
    try {
      const [tools, currency] = await Promise.all([
        shopApi.tools(),
        chosenCurrency() ?? detectCurrency(shopApi.location).then((location) => location.currency),
      ]);
      const entry = tools.find((candidate) => candidate._id === tool._id);
      if (!entry) throw new Error(`the catalogue has no tool ${tool._id}`);
      setShown({ tool: entry, currency });
      setAdding({ tool: entry, currency });
    } catch (failure) {
      console.error('Could not open Add seats', failure);
      toast.error('Add seats could not be opened. Please try again.');
    } finally {
      setOpening(false);
    }
  };

  const proceed = async (billing: BillingDetails, typed: BillingDraft, order: OrderChoice) => {
    if (!adding) return;
    keepDraft(typed);
    await purchase(adding.tool, adding.currency, billing, () => flushSync(() => setAdding(null)), {
      ...order,
      teamLicenseId: licenseId,
    });
  };

  const proforma = useProforma();
  const askProforma = async (billing: BillingDetails, typed: BillingDraft, order: OrderChoice) => {
    if (!adding) return;
    await proforma(tool._id, adding.currency, billing, { ...order, teamLicenseId: licenseId }, () => {
      rememberBillingDraft({ ...typed, couponCode: '', couponFor: '', seats: '' });
      flushSync(() => setAdding(null));
    });
  };

  const dialog = shown && seats !== undefined && (
    <Suspense fallback={null}>
      <BillingModal
        open={adding !== null}
        addSeatsTo={seats}
        teamLicenseId={licenseId}
        currency={shown.currency}
        toolId={adding ? tool._id : undefined}
        draft={draft()}
        onDraftChange={keepDraft}
        summary={
          <div className="flex items-baseline justify-between gap-4">
            <span className="font-medium text-brand-900">{toolTitle(shown.tool)}</span>
            <span className="shrink-0 font-semibold text-brand-900">
              {formatPrice(displayPrice(shown.tool, shown.currency), shown.currency)} a seat
            </span>
          </div>
        }
        onCancel={() => setAdding(null)}
        onSubmit={proceed}
        onProforma={askProforma}
        returnFocus={returnFocus}
      />
    </Suspense>
  );
  return { opening, open: () => void openAddSeats(), dialog };
}
