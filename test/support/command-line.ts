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

/**
 * A command line's words as the operator types them: argv`coupons add ${code} --percent 25`. The text splits on
 * white space; an interpolated value stays one word (a tool named "PDF Toolkit" too), so it must stand apart.
 */
export function argv(text: TemplateStringsArray, ...values: string[]): string[] {
  return text.flatMap((part, index) => {
    const gluedBefore = index > 0 && part !== '' && !/^\s/.test(part);
    const gluedAfter = index < values.length && part !== '' && !/\s$/.test(part);
    if (gluedBefore || gluedAfter) throw new Error(`argv: a value glued to "${part}"; put a space around it`);
    const words = part.split(/\s+/).filter(Boolean);
    return index < values.length ? [...words, values[index] as string] : words;
  });
}
