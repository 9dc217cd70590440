import type { DataSecrets } from '../data-secrets';

/** The purpose (AES-GCM associated data) endpoint secrets are sealed under (decision 032). */
const PURPOSE = 'webhook-secret';

export const sealEndpointSecret = (ctx: { dataSecrets: DataSecrets }, secret: string) =>
  ctx.dataSecrets.seal(PURPOSE, secret);

export const openEndpointSecret = (ctx: { dataSecrets: DataSecrets }, sealed: string) =>
  ctx.dataSecrets.open(PURPOSE, sealed);
