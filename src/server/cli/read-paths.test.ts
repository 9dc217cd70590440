import { beforeAll, describe, expect, it } from 'vitest';
import { commandLineOn } from '../../../test/support/command-line';
import { testAppForFile } from '../../../test/support/file-apps';
import { tools } from '../db/schema/catalogue';
import { type CommandLineEnv, runCommandLine } from './command-line';

/**
 * A command that reads writes nothing: `tools list` shows the catalogue as it is; seeding is one of the start-up
 * writes (startup.ts), which the test app has already made.
 */

const t = testAppForFile();
let cli: CommandLineEnv;

beforeAll(async () => {
  cli = commandLineOn(t);
});

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
