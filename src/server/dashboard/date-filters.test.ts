import { beforeAll, describe, expect, it } from 'vitest';
import type { TestClient } from '../../../test/support/client';
import { commandLineOn } from '../../../test/support/command-line';
import { verifiedOperator } from '../../../test/support/dashboard-helpers';
import { testAppForFile } from '../../../test/support/file-apps';
import { FILTER_DAY_MESSAGES } from '../../shared/dashboard';
import { type CommandLineEnv, runCommandLine } from '../cli/command-line';

/**
 * Issue 63: the operator's date filters (the dashboard's orders and invoices, the command line's --from, --to and
 * --since) refuse year 0 and any day the database cannot hold, naming the field, instead of a 500 or a silent
 * year 1900.
 */
const t = testAppForFile();
let operator: TestClient;
let cli: CommandLineEnv;

beforeAll(async () => {
  ({ client: operator } = await verifiedOperator(t));
  cli = commandLineOn(t);
});

const UNHOLDABLE = ['0000-01-01', '0001-01-01', '9999-12-31', '0099-06-15'];

describe('the dashboard', () => {
  it.each(UNHOLDABLE)(
    'answers 400 naming the field for %s in the orders and invoices filters',
    async (day) => {
      for (const [url, field] of [
        [`/api/admin/orders?from=${day}`, 'from'],
        [`/api/admin/orders?to=${day}`, 'to'],
        [`/api/admin/invoices?from=${day}&to=2026-04-30`, 'from'],
        [`/api/admin/invoices?from=2026-04-01&to=${day}`, 'to'],
        [`/api/admin/invoices/export?from=${day}&to=2026-04-30`, 'from'],
      ] as const) {
        const answer = await operator.get(url);
        expect(answer.statusCode, `${url}: ${answer.body}`).toBe(400);
        expect(answer.json().fieldErrors?.[field], url).toBe(FILTER_DAY_MESSAGES.outOfRange);
      }
    },
  );

  it('still takes the days people mean', async () => {
    expect((await operator.get('/api/admin/orders?from=2000-01-01&to=2999-12-31')).statusCode).toBe(200);
    expect((await operator.get('/api/admin/invoices?from=2026-04-01&to=2026-04-30')).statusCode).toBe(200);
  });
});

describe('the command line', () => {
  it.each(UNHOLDABLE)('refuses %s in --from, --to and --since, naming the option', async (day) => {
    for (const [args, option] of [
      [['invoices', 'list', '--from', day, '--to', '2026-04-30'], '--from'],
      [['invoices', 'list', '--from', '2026-04-01', '--to', day], '--to'],
      [['orders', 'list', '--since', day], '--since'],
      [['activity', '--since', day], '--since'],
    ] as const) {
      const run = await runCommandLine([...args], cli);
      expect(run.exitCode, `${args.join(' ')}: ${run.stdout}`).not.toBe(0);
      expect(run.stderr, args.join(' ')).toContain(`${option} "${day}": ${FILTER_DAY_MESSAGES.outOfRange}`);
    }
  });

  it('refuses an age that reaches before the first day', async () => {
    const run = await runCommandLine(['orders', 'list', '--since', '999999d'], cli);
    expect(run.exitCode).not.toBe(0);
    expect(run.stderr).toContain(`--since "999999d": ${FILTER_DAY_MESSAGES.outOfRange}`);
  });
});
