import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { eq } from 'drizzle-orm';
import { afterAll, describe, expect, it } from 'vitest';
import { openTestApp } from '../../../test/support/app';
import { runCli } from '../../../test/support/processes';
import { DEVELOPMENT_EXAMPLES } from '../../shared/shop';
import { tools } from '../db/schema/catalogue';
import { coupons } from '../db/schema/coupons';

/** Issue 63: a first run shows everything, and a command line run from the wrong folder makes no new shop. */
const folders: string[] = [];
const folder = (prefix: string) => {
  const made = mkdtempSync(path.join(tmpdir(), prefix));
  folders.push(made);
  return made;
};
afterAll(() => {
  for (const made of folders) rmSync(made, { recursive: true, force: true });
});

describe('the first run', () => {
  it('seeds a development shop with a free trial and the example coupon, and a test shop with neither', async () => {
    for (const env of ['development', 'test'] as const) {
      const app = await openTestApp({ env: { NODE_ENV: env, DATA_DIR: folder(`first-run-${env}-`) } });
      try {
        const tried = await app.ctx.db
          .select()
          .from(tools)
          .where(eq(tools.device, DEVELOPMENT_EXAMPLES.trialDevice));
        const coupon = await app.ctx.db
          .select()
          .from(coupons)
          .where(eq(coupons.code, DEVELOPMENT_EXAMPLES.coupon.code));
        if (env === 'development') {
          expect(tried.map((tool) => tool.trialDays)).toEqual([DEVELOPMENT_EXAMPLES.trialDays]);
          expect(coupon.map((row) => row.percent)).toEqual([DEVELOPMENT_EXAMPLES.coupon.percent]);
        } else {
          expect(tried.map((tool) => tool.trialDays)).toEqual([0]);
          expect(coupon).toEqual([]);
        }
      } finally {
        await app.close();
      }
    }
  }, 60_000);
});

describe('the command line without DATA_DIR', () => {
  it('refuses to make a new database where ./data holds none, naming the folder it looked in', async () => {
    const cwd = folder('admin-elsewhere-');
    const run = await runCli(['tools', 'list'], {
      cwd,
      env: { PATH: process.env.PATH ?? '', NODE_ENV: 'test', LOG_LEVEL: 'silent' },
    });
    expect(run.code, run.stdout).toBe(1);
    expect(run.stderr).toContain('No database in ./data');
    expect(run.stderr).toContain(path.join(cwd, 'data'));
    expect(existsSync(path.join(cwd, 'data', 'pglite'))).toBe(false);
  }, 60_000);
});
