import { useEffect } from 'react';
import { useSearch } from 'wouter';
import type { MyLicense } from '../../shared/licenses';
import type { PurchasedTool } from '../../shared/shop';
import { toolTitle } from '../components/tools/toolTitle';
import { useLicenseChange } from '../features/checkout/useLicenseChange';
import { EditionOffer, upgradeButton } from '../features/my-tools/EditionOffer';
import { renewButton, UpdatesOffer } from '../features/my-tools/UpdatesOffer';

/**
 * What a license offers beyond its key (issues 64, 65), on My Tools' card and on its order's page: its edition with
 * the upgrades, and the end of its updates with the renewal; My Tools' offers and the checkout, which meet here
 * (decision 055). Loaded only for a license of a tool with editions or with updates for a period. A link
 * `?renew=<licenseId>` (the renewal reminders' button) opens that license's renewal once, then leaves the address.
 */
export default function LicenseOffers({
  tool,
  license,
  onPurchased,
}: {
  tool: Pick<PurchasedTool, '_id' | 'name' | 'device'>;
  license: MyLicense;
  onPurchased: () => void;
}) {
  const title = toolTitle(tool);
  const change = useLicenseChange({
    tool,
    license,
    onPurchased,
    returnFocus: (offer) =>
      'upgrade' in offer ? upgradeButton(license.licenseId) : renewButton(license.licenseId),
  });

  const asked = new URLSearchParams(useSearch()).get('renew') === license.licenseId;
  const offered = license.renewal;
  useEffect(() => {
    if (!asked) return;
    // The page's own address without the question (wouter hears replaceState), so a reload does not ask again.
    window.history.replaceState(window.history.state, '', window.location.pathname);
    if (offered) change.open({ renewal: offered });
  }, [asked, offered, change.open]);

  return (
    <>
      <EditionOffer
        license={license}
        toolTitle={title}
        onUpgrade={(chosen) => change.open({ upgrade: chosen })}
      />
      <UpdatesOffer
        license={license}
        toolTitle={title}
        onRenew={() => license.renewal && change.open({ renewal: license.renewal })}
      />
      {change.dialog}
    </>
  );
}
