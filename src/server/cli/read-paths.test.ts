import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../../../test/support/app';
import { commandLineOn } from '../../../test/support/command-line';
import { tools } from '../db/schema/catalogue';
import { type CommandLineEnv, runCommandLine } from './command-line';

/**
 * A command that reads writes nothing: `tools list` shows the catalogue as it is; seeding is one of the start-up
 * writes (startup.ts), which the test app has already made.
 */

let t: TestApp;
let cli: CommandLineEnv;

beforeAll(async () => {
  t = await createTestApp();
  cli = commandLineOn(t);
});
afterAll(() => t.close());

describe('tools list', () => {
  it('lists the catalogue as it stands and writes nothing (not even the tools it might seed)', async () => {
    const snapshot = async () => t.ctx.db.select({ id: tools.id, updatedAt: tools.updatedAt }).from(tools);
    const before = await snapshot();
    expect(before.length).toBeGreaterThan(0);
    const run = await runCommandLine(['tools', 'list', '--json'], cli);
    expect(run.exitCode, run.stderr).toBe(0);
    expect((JSON.parse(run.stdout) as unknown[]).length).toBe(before.length);
    expect(await snapshot()).toEqual(before);
  });
});
