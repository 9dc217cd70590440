import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { gzipSync } from 'node:zlib';
import { eq, sql } from 'drizzle-orm';
import type { PgTable } from 'drizzle-orm/pg-core';
import { afterAll, describe, expect, it } from 'vitest';
import { openTestApp, TEST_RELEASE_SIGNING_KEY } from '../../../test/support/app';
import { type CliRun, runCli } from '../../../test/support/processes';
import { seedScale } from '../../../test/support/scale-shop';
import { TEST_DATA_SECRET_KEY } from '../../../test/support/settings';
import { catalogueRows, createUser, INR_BILLING } from '../../../test/support/shop-fixtures';
import { pgliteBackupJob } from '../jobs';
import { BACKUPS_KEPT, backupIsFresh, listBackups, restoreBackup, writeBackup } from './backup';
import { openDatabase } from './index';
import { users } from './schema/accounts';
import { creditNotes, documentCounters, invoices } from './schema/invoices';
import { licenses } from './schema/licenses';
import { auditLog } from './schema/operator';
import { orders } from './schema/orders';

const dirs: string[] = [];
const freshDir = () => {
  const dir = mkdtempSync(path.join(os.tmpdir(), 'backup-test-'));
  dirs.push(dir);
  return dir;
};
afterAll(() => {
  for (const dir of dirs) rmSync(dir, { recursive: true, force: true });
});

/** Paths under `dir` that group or others may read, write or enter. */
const looseUnder = (dir: string): string[] =>
  readdirSync(dir, { recursive: true, encoding: 'utf8' }).filter(
    (name) => (statSync(path.join(dir, name)).mode & 0o077) !== 0,
  );

function admin(dataDir: string, ...args: string[]): Promise<CliRun> {
  return runCli(args, {
    env: {
      PATH: process.env.PATH ?? '',
      NODE_ENV: 'test',
      DATA_DIR: dataDir,
      SESSION_SECRET: 'backup-test-session-secret-0123456789abcdef',
      // The keys the test apps' data was sealed and signed with: restore checks the target has them.
      DATA_SECRET_KEY: TEST_DATA_SECRET_KEY,
      RELEASE_SIGNING_KEY: TEST_RELEASE_SIGNING_KEY,
    },
  });
}

// The embedded database's own backups: on the PostgreSQL pass there is no PGlite to back up (pg_dump's job).
describe('backups of the embedded database', () => {
  it('restores a snapshot taken with the command line into a fresh DATA_DIR, orders included', async () => {
    const original = freshDir();
    const t = await openTestApp({ env: { DATA_DIR: original } });
    const catalogue = await catalogueRows(t);
    const buyer = await createUser(t);
    const [order] = await t.ctx.db
      .insert(orders)
      .values({
        userId: buyer.id,
        toolId: catalogue.windows.id,
        razorpayOrderId: 'order_BackupTest0001',
        razorpayPaymentId: 'pay_BackupTest0001',
        amount: 49900,
        currency: 'INR',
        billing: INR_BILLING,
        status: 'paid',
      })
      .returning();
    await t.close();

    const made = await admin(original, 'backup', '--json');
    expect(made.stderr).toBe('');
    expect(made.code).toBe(0);
    const { file } = JSON.parse(made.stdout) as { file: string };
    expect(path.dirname(file)).toBe(path.join(original, 'backups'));
    expect(existsSync(file)).toBe(true);

    const restoredDir = freshDir();
    const restored = await admin(restoredDir, 'restore', file);
    expect(restored.stderr).toBe('');
    expect(restored.code).toBe(0);
    const again = await admin(restoredDir, 'restore', file);
    expect(again.code).not.toBe(0);
    expect(again.stderr).toMatch(/already holds a database/);

    const reopened = await openTestApp({ env: { DATA_DIR: restoredDir } });
    try {
      const rows = await reopened.ctx.db.select().from(orders);
      expect(rows.map((row) => [row.id, row.razorpayOrderId, row.status, row.amount])).toEqual([
        [order?.id, 'order_BackupTest0001', 'paid', 49900],
      ]);
    } finally {
      await reopened.close();
    }
  }, 180_000);

  it('refuses a file that is not a snapshot with a clear error, and leaves DATA_DIR without a database', async () => {
    const dir = freshDir();
    const gzippedText = path.join(dir, 'notes.tar.gz');
    writeFileSync(gzippedText, gzipSync('not a database\n'));
    const plainText = path.join(dir, 'notes.txt');
    writeFileSync(plainText, 'not a database either\n');
    for (const file of [gzippedText, plainText]) {
      const restoredDir = freshDir();
      const refused = await admin(restoredDir, 'restore', file);
      expect(refused.code).toBe(1);
      expect(refused.stderr).toContain(`admin: ${file} did not open as a database`);
      expect(refused.stderr).toContain('nothing was restored');
      expect(refused.stderr).not.toContain('Unexpected error');
      expect(existsSync(path.join(restoredDir, 'pglite'))).toBe(false);
    }
  }, 120_000);

  it('keeps the newest seven, and the daily job writes only when the newest is a day old', async () => {
    const dataDir = freshDir();
    const database = await openDatabase({ pgliteDir: 'memory://' });
    try {
      if (!database.snapshot) throw new Error('PGlite offers snapshots');
      // One real snapshot, written many times over: what is under test here is which files are kept.
      const takenFile = path.join(dataDir, 'taken.tar.gz');
      await database.snapshot(takenFile);
      const taken = readFileSync(takenFile);
      const snapshot = async (file: string) => writeFileSync(file, taken);
      const day = 24 * 60 * 60 * 1000;
      const start = Date.parse('2026-06-01T02:00:00Z');
      for (let i = 0; i < BACKUPS_KEPT + 2; i++)
        await writeBackup(snapshot, dataDir, new Date(start + i * day));
      const kept = await listBackups(dataDir);
      expect(kept).toHaveLength(BACKUPS_KEPT);
      expect(kept[0]?.takenAt.toISOString()).toBe(new Date(start + (BACKUPS_KEPT + 1) * day).toISOString());
      expect(kept.at(-1)?.takenAt.toISOString()).toBe(new Date(start + 2 * day).toISOString());

      const jobDir = freshDir();
      const job = pgliteBackupJob(snapshot, jobDir, { info() {} });
      expect(await backupIsFresh(jobDir)).toBe(false);
      await job.run();
      await job.run();
      expect(await listBackups(jobDir)).toHaveLength(1);
      expect(await backupIsFresh(jobDir)).toBe(true);
    } finally {
      await database.close();
    }
  }, 120_000);

  it('takes a snapshot while the database keeps writing, and the restored copy holds every row committed before it', async () => {
    const original = freshDir();
    const t = await openTestApp({ env: { DATA_DIR: original } });
    let written = 0;
    let snapshotEnded = Number.POSITIVE_INFINITY;
    try {
      await seedScale(t.ctx, { buyers: 400, orders: 1200, seed: 5 }, () => {});
      const snapshot = t.database.snapshot;
      if (!snapshot) throw new Error('PGlite offers snapshots');
      // A writer that does not stop for the snapshot: one audit entry after another, each in a turn of the event
      // loop of its own, as requests come (PGlite answers within the same turn, so a bare loop would never yield).
      let writing = true;
      const writer = (async () => {
        while (writing) {
          await t.ctx.db.insert(auditLog).values({ actor: 'snapshot-test', action: `write.${written}` });
          written++;
          await new Promise((resolve) => setImmediate(resolve));
        }
      })();
      while (written < 20) await new Promise((resolve) => setTimeout(resolve, 10));
      const before = written;
      const backup = await writeBackup(snapshot, original);
      snapshotEnded = written;
      writing = false;
      await writer;
      expect(snapshotEnded).toBeGreaterThan(before);

      const restoredDir = freshDir();
      await restoreBackup(backup.file, restoredDir);
      // PGlite unpacks a snapshot with modes that ignore the umask; the restore leaves it as the server keeps its own.
      expect(looseUnder(path.join(restoredDir, 'pglite'))).toEqual([]);
      const reopened = await openTestApp({ env: { DATA_DIR: restoredDir } });
      try {
        for (const table of [users, orders, invoices, creditNotes, licenses])
          expect(await countIn(reopened, table)).toBe(await countIn(t, table));
        const entries = await reopened.ctx.db
          .select({ action: auditLog.action })
          .from(auditLog)
          .where(eq(auditLog.actor, 'snapshot-test'));
        // Every entry committed before the snapshot ended, in order with no hole; at most those written since.
        expect(entries.length).toBeGreaterThanOrEqual(before);
        expect(entries.length).toBeLessThanOrEqual(written);
        const restoredActions = new Set(entries.map((entry) => entry.action));
        const missing = Array.from({ length: entries.length }, (_, i) => `write.${i}`).filter(
          (action) => !restoredActions.has(action),
        );
        expect(missing).toEqual([]);
        // The restored copy is a working database: the next invoice number follows the last one.
        const [counter] = await reopened.ctx.db.select().from(documentCounters).limit(1);
        expect(counter?.lastNumber).toBeGreaterThan(0);
      } finally {
        await reopened.close();
      }
    } finally {
      await t.close();
    }
  }, 240_000);
});

async function countIn(t: Awaited<ReturnType<typeof openTestApp>>, table: PgTable): Promise<number> {
  return Number((await t.ctx.db.select({ n: sql<number>`count(*)` }).from(table))[0]?.n);
}
