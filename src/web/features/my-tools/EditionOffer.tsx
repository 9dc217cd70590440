import { useEffect, useRef } from 'react';
import type { LicenseUpgrade, MyLicense } from '../../../shared/licenses';
import { formatSubunits } from '../../../shared/money';
import { quietSmallButton } from '../../components/form/buttons';
import { announce, focusLost } from '../../lib/announce';

/** The offer's words (issue 64): 'Upgrade to Pro — ₹1,500.00', for all of the license's seats. */
export const upgradeLabel = (upgrade: LicenseUpgrade) =>
  `Upgrade to ${upgrade.name} — ${formatSubunits(upgrade.amount, upgrade.currency)}`;

/** The first upgrade button of a license, which focus returns to when its checkout closes. */
export const upgradeButton = (licenseId: string) =>
  document.querySelector<HTMLElement>(`[data-upgrade="${CSS.escape(licenseId)}"]`);

/**
 * A license's edition (decision 056) and, below its tool's top edition, one "Upgrade to …" per higher edition with
 * what it costs now for all the license's seats. Once an upgrade is paid the licenses are read again: the edition
 * changes, the offer goes, and focus (which was on it) moves to the edition, which is said.
 */
export function EditionOffer({
  license,
  toolTitle,
  onUpgrade,
}: {
  license: MyLicense;
  toolTitle: string;
  onUpgrade: (upgrade: LicenseUpgrade) => void;
}) {
  const edition = license.edition?.name;
  const editionRef = useRef<HTMLParagraphElement>(null);
  const shown = useRef(edition);
  useEffect(() => {
    if (shown.current === edition) return;
    shown.current = edition;
    if (focusLost()) editionRef.current?.focus();
    announce(`${toolTitle} is now ${edition}.`);
  }, [edition, toolTitle]);
  if (!edition) return null;
  return (
    <section aria-label={`Edition of ${toolTitle}`} className="mb-6">
      <p ref={editionRef} tabIndex={-1} className="text-sm text-slate-700">
        Edition: <strong className="font-semibold text-brand-900">{edition}</strong>
      </p>
      {license.upgrades.length > 0 && (
        <div className="mt-2 flex flex-wrap gap-2">
          {license.upgrades.map((upgrade, index) => (
            <button
              key={upgrade.editionId}
              type="button"
              data-upgrade={index === 0 ? license.licenseId : undefined}
              onClick={() => onUpgrade(upgrade)}
              className={quietSmallButton}
            >
              {upgradeLabel(upgrade)}
              <span className="sr-only"> for {toolTitle}</span>
            </button>
          ))}
        </div>
      )}
    </section>
  );
}
