import { and, eq, not, sql } from 'drizzle-orm';
import type { Database } from '../db';
import { webhookEndpoints } from '../db/schema/webhooks';
import type { DataSecrets } from '../kernel/data-secrets';

/** The purpose (AES-GCM associated data) endpoint secrets are sealed under (decision 032). */
const PURPOSE = 'webhook-secret';

export const sealEndpointSecret = (ctx: { dataSecrets: DataSecrets }, secret: string) =>
  ctx.dataSecrets.seal(PURPOSE, secret);

export const openEndpointSecret = (ctx: { dataSecrets: DataSecrets }, sealed: string) =>
  ctx.dataSecrets.open(PURPOSE, sealed);

/**
 * Brings every endpoint secret under the current key at start, as license secrets and mail bodies are (decision
 * 032), so a key being rotated out can go once this has run. Idempotent; returns how many it re-sealed.
 */
export async function sealWebhookSecrets(db: Database, secrets: DataSecrets): Promise<number> {
  const stale = not(sql`${webhookEndpoints.secret} like ${`${secrets.currentPrefix}%`}`);
  const rows = await db
    .select({ id: webhookEndpoints.id, secret: webhookEndpoints.secret })
    .from(webhookEndpoints)
    .where(stale);
  for (const row of rows) {
    await db
      .update(webhookEndpoints)
      .set({ secret: secrets.seal(PURPOSE, secrets.open(PURPOSE, row.secret)) })
      .where(and(eq(webhookEndpoints.id, row.id), stale));
  }
  return rows.length;
}
