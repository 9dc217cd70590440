import type { MyLicense } from '../../../shared/licenses';
import type { PurchasedTool, StatusResponse } from '../../../shared/shop';
import { api } from '../../lib/api';

/**
 * My Tools' calls: the buyer's tools, and their licenses and devices (docs/license-api.md; session cookie and CSRF
 * token as usual).
 */
export const myToolsApi = {
  myTools: () => api.get<PurchasedTool[]>('/api/my-tools/'),
  myLicenses: () => api.get<MyLicense[]>('/api/my-licenses/'),
  deactivateDevice: (deviceId: string) =>
    api.post<StatusResponse & { selfDeactivationsLeft: number }>(
      `/api/my-licenses/devices/${encodeURIComponent(deviceId)}/deactivate`,
    ),
  licenseFileUrl: (deviceId: string) =>
    `/api/my-licenses/devices/${encodeURIComponent(deviceId)}/license-file`,
};
