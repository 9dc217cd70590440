import { z } from 'zod';
import { grantOperator, listOperators, OperatorError, revokeOperator } from '../operator/roles';
import { formatTime, table } from './format';
import { argument, CommandError, defineCommand, parseCommandInput } from './framework';
import { emailArgument } from './lookup';

/** The operator role is granted and removed here only, never from the web (docs/product.md §12). */

const EMAIL_ARG = { name: 'email', description: 'the account’s email address (any letter case)' };
const accountInput = z.object({ email: emailArgument });

const emailOf = (input: { args: Array<string | undefined> }): string =>
  parseCommandInput(accountInput, { args: { email: argument(input, 0) } }).email;

async function refusedAsCommandError<T>(run: () => Promise<T>): Promise<T> {
  try {
    return await run();
  } catch (error) {
    if (error instanceof OperatorError) throw new CommandError(error.message);
    throw error;
  }
}

const add = defineCommand({
  path: ['operators', 'add'],
  summary: 'Give an account access to the /admin dashboard (it enrols an authenticator app at first sign-in)',
  args: [EMAIL_ARG],
  example: 'operators add asha@example.com',
  async run(env, input) {
    const email = emailOf(input);
    const ctx = await env.open();
    const done = await refusedAsCommandError(() => grantOperator(ctx, email, env.actor));
    return {
      data: { email: done.email, operator: true },
      text: `${done.email} is now an operator. At the first sign-in on /admin they set up an authenticator app.`,
    };
  },
});

const remove = defineCommand({
  path: ['operators', 'remove'],
  summary: 'Take dashboard access away (ends their dashboard sessions, forgets their authenticator app)',
  args: [EMAIL_ARG],
  example: 'operators remove asha@example.com',
  async run(env, input) {
    const email = emailOf(input);
    const ctx = await env.open();
    const done = await refusedAsCommandError(() => revokeOperator(ctx, email, env.actor));
    return { data: { email: done.email, operator: false }, text: `${done.email} is no longer an operator.` };
  },
});

const list = defineCommand({
  path: ['operators', 'list'],
  summary: 'List the accounts with dashboard access',
  example: 'operators list',
  async run(env) {
    const ctx = await env.open();
    const rows = await listOperators(ctx);
    return {
      data: rows,
      text: table(
        ['EMAIL', 'NAME', 'SINCE', 'AUTHENTICATOR'],
        rows.map((row) => [
          row.email,
          row.name,
          formatTime(row.grantedAt),
          row.enrolled ? 'set up' : 'not yet',
        ]),
        'No operators yet. Add one with: npm run admin -- operators add EMAIL',
      ),
    };
  },
});

export const operatorCommands = [add, remove, list];
