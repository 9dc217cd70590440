import { count } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../../../test/support/app';
import { tools } from '../db/schema';
import { cliActor } from '../operator/audit';
import { type CommandLineEnv, runCommandLine } from './command-line';

/** A command that reads writes nothing: `tools list` shows the catalogue as it is, it does not seed it. */

let t: TestApp;
let cli: CommandLineEnv;

beforeAll(async () => {
  t = await createTestApp();
  cli = {
    cwd: process.cwd(),
    actor: cliActor('tester'),
    open: async () => t.ctx,
    snapshot: async () => undefined,
  };
});
afterAll(() => t.close());

describe('tools list', () => {
  it('reads an empty catalogue without seeding it', async () => {
    const toolCount = async () => (await t.ctx.db.select({ n: count() }).from(tools))[0]?.n ?? -1;
    expect(await toolCount()).toBe(0);
    const run = await runCommandLine(['tools', 'list', '--json'], cli);
    expect(run.exitCode, run.stderr).toBe(0);
    expect(JSON.parse(run.stdout)).toEqual([]);
    expect(await toolCount()).toBe(0);
    expect(t.ctx.seed.pending).toBeUndefined();
  });
});
