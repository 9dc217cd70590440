/**
 * `npm run admin -- <command>`: the operator's command line. Runs the server's own modules on the server's
 * configuration and database; see the README section "Operating the shop".
 */

import { DomainError } from '../domain-error';
import { backupCommands } from './backup';
import { toJson } from './format';
import { type AdminContext, CommandError, type Group, parseCommandLine, UsageError } from './framework';
import { invoiceCommands } from './invoices';
import { licenseCommands } from './licenses';
import { mailCommands } from './mail';
import { messageCommands } from './messages';
import { operatorCommands } from './operators';
import { orderCommands, reconcileCommands } from './orders';
import { type AdminRuntime, openRuntime } from './runtime';
import { toolCommands } from './tools';
import { userCommands } from './users';

const GROUPS: Group[] = [
  { name: 'tools', summary: 'The catalogue: list, add, edit, price, show or hide tools, upload their files' },
  { name: 'orders', summary: 'Orders: list, show, resend the delivery email, refund' },
  { name: 'reconcile', summary: 'Ask Razorpay about open orders once and fulfil the paid ones' },
  { name: 'messages', summary: 'Contact-form messages: list, show, mark handled, export as CSV' },
  { name: 'mail', summary: 'The mail outbox: counts, failures and why, retry' },
  { name: 'users', summary: 'Accounts and what they bought' },
  { name: 'licenses', summary: 'Licenses: reset a buyer’s self-service device allowance' },
  { name: 'invoices', summary: 'Tax invoices and credit notes of a period, split for GSTR-1; CSV export' },
  { name: 'backup', summary: 'Snapshot the embedded database now (the server does it daily)' },
  { name: 'restore', summary: 'Restore an embedded-database snapshot into a fresh DATA_DIR' },
  { name: 'operators', summary: 'Who may use the /admin dashboard: add, remove, list' },
];

const COMMANDS = [
  ...toolCommands,
  ...orderCommands,
  ...reconcileCommands,
  ...messageCommands,
  ...mailCommands,
  ...userCommands,
  ...licenseCommands,
  ...invoiceCommands,
  ...backupCommands,
  ...operatorCommands,
];

function write(stream: NodeJS.WriteStream, text: string): Promise<void> {
  return new Promise((resolve) => {
    if (!stream.write(text.endsWith('\n') ? text : `${text}\n`)) stream.once('drain', resolve);
    else resolve();
  });
}

/** The reason, on one line, for the operator; the whole stack only for what is a bug rather than bad input. */
function describeFailure(error: unknown): { line: string; exitCode: number; stack?: string } {
  if (error instanceof UsageError) {
    const help = error.helpFor ? ` See: npm run admin -- ${error.helpFor} --help` : '';
    return { line: `${error.message}${help}`, exitCode: error.exitCode };
  }
  if (error instanceof CommandError) return { line: error.message, exitCode: error.exitCode };
  // A domain operation that was refused or failed cleanly: its message is for the operator; exit code 1.
  if (error instanceof DomainError) return { line: error.message, exitCode: 1 };
  const message = error instanceof Error ? error.message : String(error);
  return {
    line: `Unexpected error: ${message.split('\n')[0]}`,
    exitCode: 1,
    stack: error instanceof Error ? error.stack : undefined,
  };
}

async function main(argv: string[]): Promise<number> {
  const opened: { runtime?: AdminRuntime } = {};
  try {
    const parsed = parseCommandLine(argv, GROUPS, COMMANDS);
    if (parsed.kind === 'help') {
      await write(process.stdout, parsed.text);
      return 0;
    }
    const output = await parsed.command.run(
      {
        cwd: process.cwd(),
        async open(): Promise<AdminContext> {
          opened.runtime ??= await openRuntime();
          return opened.runtime.ctx;
        },
      },
      parsed.input,
    );
    await write(process.stdout, parsed.json ? toJson(output.data) : output.text);
    return output.exitCode ?? 0;
  } catch (error) {
    const failure = describeFailure(error);
    await write(process.stderr, `admin: ${failure.line}`);
    if (failure.stack && process.env.ADMIN_DEBUG) await write(process.stderr, failure.stack);
    return failure.exitCode;
  } finally {
    await opened.runtime?.close().catch(() => {});
  }
}

// Exit explicitly: an HTTP keep-alive socket (the gateway) must not hold the command open after its answer.
main(process.argv.slice(2)).then((code) => process.exit(code));
