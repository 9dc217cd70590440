import type { MyLicense } from '../../shared/licenses';
import type { PurchasedTool } from '../../shared/shop';
import { toolTitle } from '../components/tools/toolTitle';
import { useUpgrade } from '../features/checkout/useUpgrade';
import { EditionOffer, upgradeButton } from '../features/my-tools/EditionOffer';

/**
 * A license's edition and its upgrades (issue 64), on My Tools' card and on its order's page: My Tools' offer and
 * the checkout's upgrade, which meet here (decision 055). Loaded only for a license of a tool with editions.
 */
export default function LicenseEdition({
  tool,
  license,
  onUpgraded,
}: {
  tool: Pick<PurchasedTool, '_id' | 'name' | 'device'>;
  license: MyLicense;
  onUpgraded: () => void;
}) {
  const upgrade = useUpgrade({
    tool,
    license,
    onPurchased: onUpgraded,
    returnFocus: () => upgradeButton(license.licenseId),
  });
  return (
    <>
      <EditionOffer license={license} toolTitle={toolTitle(tool)} onUpgrade={upgrade.open} />
      {upgrade.dialog}
    </>
  );
}
