import type { MyLicense } from '../../../shared/licenses';
import type { StatusResponse } from '../../../shared/shop';
import { api } from '../../lib/api';

/** The buyer's licenses and devices on My Tools (docs/license-api.md; session cookie and CSRF token as usual). */
export const licenseApi = {
  myLicenses: () => api.get<MyLicense[]>('/api/my-licenses/'),
  deactivateDevice: (deviceId: string) =>
    api.post<StatusResponse & { selfDeactivationsLeft: number }>(
      `/api/my-licenses/devices/${encodeURIComponent(deviceId)}/deactivate`,
    ),
  licenseFileUrl: (deviceId: string) =>
    `/api/my-licenses/devices/${encodeURIComponent(deviceId)}/license-file`,
};
