import { newCouponSchema } from '../shared/coupons';
import { DEVELOPMENT_EXAMPLES } from '../shared/shop';
import { seedDefaultCatalogue } from './catalogue/seed';
import { createCoupon } from './coupons/operator';
import type { DatabaseHandle } from './db/index';
import type { AppContext } from './kernel/context';
import { sealLicenseSecrets } from './licenses/secrets-at-rest';
import { recordLicenseSigningKey } from './licenses/signing';
import { fillUpdateTokenHashes } from './licenses/update-tokens';
import { sealMailBodies } from './mail/outbox';
import { cliActor } from './operator/audit';
import { signMigratedArtifacts } from './releases/backfill';
import { sealWebhookSecrets } from './webhooks/secrets';

/** What the start-up writes changed: every figure is 0 (and `catalogueSeeded` false) on a start with nothing to do. */
export type StartUpReport = {
  /** License keys and credential passwords hashed and sealed under the current data key (decision 032). */
  licenses: number;
  /** Queued email bodies sealed under the current key. */
  emails: number;
  /** Outgoing-webhook secrets sealed under the current key. */
  endpoints: number;
  /** Activations from before update feeds given their feed token's hash, so their feeds find them. */
  updateTokens: number;
  /** Release 1.0.0 files hashed and signed, and those missing from storage (decision 034). */
  artifacts: { signed: number; missing: number };
  /** Whether an empty tools table was given the default catalogue. */
  catalogueSeeded: boolean;
};

/**
 * Every write a process makes before it serves or runs a command, in one place for the server (main.ts), the
 * command line (cli/cli.ts) and the tests' apps: migrations, then rows from before secrets were sealed (or sealed
 * under a key being rotated out), then tool files from before releases, then the default catalogue of an empty
 * shop. Each step finds nothing to do once done, so any number of starts (and instances) may run it. After it,
 * no read path writes.
 */
export async function startUp(
  database: Pick<DatabaseHandle, 'migrate'>,
  ctx: AppContext,
): Promise<StartUpReport> {
  await database.migrate();
  const licenses = await sealLicenseSecrets(ctx.db, ctx.dataSecrets);
  const emails = await sealMailBodies(ctx.db, ctx.dataSecrets);
  const endpoints = await sealWebhookSecrets(ctx.db, ctx.dataSecrets);
  const updateTokens = await fillUpdateTokenHashes(ctx);
  const artifacts = await signMigratedArtifacts(ctx);
  const { seeded } = await seedDefaultCatalogue(ctx, (tx) =>
    createCoupon(
      { db: tx, clock: ctx.clock },
      cliActor('first-run'),
      newCouponSchema.parse({ ...DEVELOPMENT_EXAMPLES.coupon }),
    ).then(() => {}),
  );
  await recordLicenseSigningKey(ctx.db, ctx.licenseSigning.kid, ctx.clock.now());
  return { licenses, emails, endpoints, updateTokens, artifacts, catalogueSeeded: seeded };
}

/** The start-up's changes in the server's log; a start with nothing to do says nothing. */
export function logStartUp(
  log: { info(obj: object, msg: string): void; warn(obj: object, msg: string): void },
  report: StartUpReport,
): void {
  if (report.licenses > 0)
    log.info({ licenses: report.licenses }, 'license secrets hashed and sealed under the current key');
  if (report.emails > 0)
    log.info({ emails: report.emails }, 'queued email bodies sealed under the current key');
  if (report.endpoints > 0)
    log.info({ endpoints: report.endpoints }, 'webhook secrets sealed under the current key');
  if (report.updateTokens > 0)
    log.info({ activations: report.updateTokens }, 'activations from before update feeds given their token');
  if (report.artifacts.signed > 0)
    log.info({ artifacts: report.artifacts.signed }, 'release 1.0.0 files hashed and signed');
  if (report.artifacts.missing > 0)
    log.warn({ artifacts: report.artifacts.missing }, 'release files missing from storage: cannot sign them');
  if (report.catalogueSeeded) log.info({}, 'the empty shop was given the default catalogue');
}
