import { lazy, Suspense, useCallback, useEffect, useState } from 'react';
import { flushSync } from 'react-dom';
import type { Currency } from '../../../shared/constants';
import { detectCurrency } from '../../../shared/currency';
import { displayPrice, formatPrice } from '../../../shared/money';
import type { BillingDetails, PurchasedTool, Tool } from '../../../shared/shop';
import type { Team } from '../../../shared/teams';
import { FormError } from '../../components/form';
import { toast } from '../../components/ToastHost';
import { focusLost } from '../../lib/announce';
import { ApiError } from '../../lib/api';
import { shopApi } from './api';
import type { BillingDraft, OrderChoice } from './BillingModal';
import { loadCheckout } from './checkout';
import { chosenCurrency, rememberBillingDraft, storedBillingDraft } from './intent';
import { TeamView } from './TeamView';
import { teamsApi } from './teamApi';
import { toolTitle } from './toolTitle';
import { usePurchase } from './usePurchase';

const BillingModal = lazy(() =>
  import('./BillingModal').then((module) => ({ default: module.BillingModal })),
);

const failureText = (failure: unknown, fallback: string) =>
  (failure instanceof ApiError && failure.serverMessage) || fallback;

/** What "Add seats" buys: the catalogue's entry of the tool (its prices) in the currency the buyer sees. */
type AddSeats = { tool: Tool; currency: Currency };

/**
 * The owner's team panel on a tool's card in My Tools (loaded only for a tool whose license is a team the buyer
 * owns): reads GET /api/teams/:licenseId and reads it again after every change. "Add seats" opens the billing
 * dialog for the same tool, whose order adds its seats to this team (its own order and invoice).
 */
export default function TeamPanel({ tool, licenseId }: { tool: PurchasedTool; licenseId: string }) {
  const [team, setTeam] = useState<Team | null>(null);
  const [loadFailed, setLoadFailed] = useState(false);
  const [adding, setAdding] = useState<AddSeats | null>(null);
  // The billing dialog stays mounted once opened, so that closing it returns focus the way every dialog does.
  const [shown, setShown] = useState<AddSeats | null>(null);
  const [opening, setOpening] = useState(false);

  const load = useCallback(
    () =>
      teamsApi.team(licenseId).then(
        (answer) => {
          setTeam(answer);
          setLoadFailed(false);
        },
        (failure: unknown) => {
          console.error('Failed to load the team', failure);
          setLoadFailed(true);
        },
      ),
    [licenseId],
  );
  useEffect(() => {
    void load();
  }, [load]);

  const addSeatsButton = () =>
    document.querySelector<HTMLElement>(`[data-team="${CSS.escape(licenseId)}"] [data-add-seats]`);
  const { purchase } = usePurchase({
    loadCheckout,
    onPurchased: () => {
      // The code was used and the seats bought: the next order starts without them.
      const next = { ...(storedBillingDraft() ?? { address: '', state: '', country: '', gstin: '' }) };
      rememberBillingDraft({ ...next, couponCode: '', couponFor: '', seats: '' });
      void load();
    },
    onCheckoutClosed: () =>
      window.setTimeout(() => {
        if (focusLost() || !document.getElementById('main')?.contains(document.activeElement))
          addSeatsButton()?.focus();
      }),
  });

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
    rememberBillingDraft({ ...typed, couponFor: tool._id });
    await purchase(adding.tool, adding.currency, billing, () => flushSync(() => setAdding(null)), {
      ...order,
      teamLicenseId: licenseId,
    });
  };

  if (loadFailed && !team)
    return <FormError message="Your team could not be loaded. Please reload the page." />;
  if (!team) return <p className="mb-6 text-sm text-slate-600">Loading your team...</p>;
  return (
    <div data-team={licenseId}>
      <TeamView
        team={team}
        addSeatsBusy={opening}
        onInvite={async (email) => {
          await teamsApi.invite(licenseId, email);
          await load();
          toast.success(`Invitation sent to ${email}.`);
        }}
        onCancelInvitation={async (invitation) => {
          try {
            await teamsApi.cancelInvitation(licenseId, invitation.id);
            await load();
            toast.success(`The invitation to ${invitation.email} is cancelled: its seat is free.`);
          } catch (failure) {
            toast.error(failureText(failure, 'The invitation could not be cancelled. Please try again.'));
          }
        }}
        onRemove={async (member) => {
          await teamsApi.removeMember(licenseId, member.memberId);
          await load();
          toast.success(`${member.name} no longer has a seat: it is free to give to someone else.`);
        }}
        onAddSeats={() => void openAddSeats()}
      />
      {shown && (
        <Suspense fallback={null}>
          <BillingModal
            open={adding !== null}
            addSeatsTo={team.seats}
            currency={shown.currency}
            toolId={adding ? tool._id : undefined}
            draft={draftFor(tool._id)}
            onDraftChange={(typed) => rememberBillingDraft({ ...typed, couponFor: tool._id })}
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
            returnFocus={addSeatsButton}
          />
        </Suspense>
      )}
    </div>
  );
}

/** What the buyer typed last in this tab, with its coupon only if it was applied to this tool. */
function draftFor(toolId: string): BillingDraft | undefined {
  const stored = storedBillingDraft();
  return stored && { ...stored, couponCode: stored.couponFor === toolId ? stored.couponCode : '' };
}
