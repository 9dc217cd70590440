import { type CommandLineEnv, runCommandLine } from '../../src/server/cli/command-line';
import { cliActor } from '../../src/server/operator/audit';
import type { TestApp } from './app';

/** `npm run admin -- …` through the command line's dispatcher, in this process, on the test app's database. */

/** The command line's environment on `t`'s database, as operator `actor`; no snapshot is taken before a change. */
export function commandLineOn(t: TestApp, actor = 'tester'): CommandLineEnv {
  return {
    cwd: process.cwd(),
    actor: cliActor(actor),
    open: async () => t.ctx,
    snapshot: async () => undefined,
  };
}

/** Runs `args` as `npm run admin -- args` on the app `app()` returns (a function, as `t` is set in `beforeAll`). */
export function adminOn(app: () => TestApp, actor = 'tester') {
  return (...args: string[]) => runCommandLine(args, commandLineOn(app(), actor));
}
