import { myToolsApi } from '../features/my-tools/api';
import { useQuery } from '../lib/useQuery';
import LicenseOffers from './LicenseOffers';

/**
 * An order's license's edition and upgrades on the order's page (issue 64), with its updates and their renewal
 * (issue 65), as My Tools shows them: the license and its tool as My Tools lists them. Nothing while they load, or
 * for a license My Tools no longer lists.
 */
export default function OrderLicenseOffers({ licenseId }: { licenseId: string }) {
  const licenses = useQuery('my-licenses', myToolsApi.myLicenses);
  const tools = useQuery('my-tools', myToolsApi.myTools);
  const license = licenses.data?.find((candidate) => candidate.licenseId === licenseId);
  const tool = license && tools.data?.find((candidate) => candidate._id === license.toolId);
  if (!license || !tool) return null;
  return <LicenseOffers tool={tool} license={license} onPurchased={() => void licenses.reload()} />;
}
