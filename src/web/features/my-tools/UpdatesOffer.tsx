import { useEffect, useRef } from 'react';
import type { MyLicense } from '../../../shared/licenses';
import { formatSubunits } from '../../../shared/money';
import { quietSmallButton } from '../../components/form/buttons';
import { announce, focusLost } from '../../lib/announce';
import { formatDate } from '../../lib/dates';

/** The renewal's words (issue 65), as the reminder emails' button has them: 'Renew updates for ₹599.00'. */
export const renewLabel = (renewal: NonNullable<MyLicense['renewal']>) =>
  `Renew updates for ${formatSubunits(renewal.amount, renewal.currency)}`;

/** A license's renewal button, which focus returns to when its checkout closes. */
export const renewButton = (licenseId: string) =>
  document.querySelector<HTMLElement>(`[data-renew="${CSS.escape(licenseId)}"]`);

/**
 * The end of a license's updates (decision 059), "Updates until 3 Mar 2027", and from 60 days before it (or after it)
 * "Renew updates for ₹599.00", for all the license's seats. Once a renewal is paid the licenses are read again: the
 * date moves, the offer goes until the next period nears its end, and focus (which was on it) moves to the new date,
 * which is said. Nothing for a license that gets every release.
 */
export function UpdatesOffer({
  license,
  toolTitle,
  onRenew,
}: {
  license: MyLicense;
  toolTitle: string;
  onRenew: () => void;
}) {
  const until = license.updatesUntil;
  const untilRef = useRef<HTMLParagraphElement>(null);
  const shown = useRef(until);
  useEffect(() => {
    if (shown.current === until) return;
    shown.current = until;
    if (!until) return;
    if (focusLost()) untilRef.current?.focus();
    announce(`Updates for ${toolTitle} now last until ${formatDate(until)}.`);
  }, [until, toolTitle]);
  if (!until) return null;
  return (
    <section aria-label={`Updates of ${toolTitle}`} className="mb-6">
      <p ref={untilRef} tabIndex={-1} className="text-sm text-slate-700">
        Updates until <strong className="font-semibold text-brand-900">{formatDate(until)}</strong>
      </p>
      {license.renewal && (
        <div className="mt-2">
          <button type="button" data-renew={license.licenseId} onClick={onRenew} className={quietSmallButton}>
            {renewLabel(license.renewal)}
            <span className="sr-only"> for {toolTitle}</span>
          </button>
        </div>
      )}
    </section>
  );
}
