import { DomainError } from '../kernel/domain-error';
import { activityCommands } from './activity';
import { backupCommands } from './backup';
import { couponCommands } from './coupons';
import { editionCommands } from './editions';
import { toJson } from './format';
import { type AdminEnv, CommandError, type Group, parseCommandLine, UsageError } from './framework';
import { invoiceCommands } from './invoices';
import { licenseCommands } from './licenses';
import { mailCommands } from './mail';
import { messageCommands } from './messages';
import { moveCommands } from './move';
import { operatorCommands } from './operators';
import { orderCommands, reconcileCommands } from './orders';
import { proformaCommands } from './proformas';
import { refundCommands } from './refunds';
import { releaseCommands } from './releases';
import { toolCommands } from './tools';
import { trialCommands } from './trials';
import { userCommands } from './users';
import { webhookCommands } from './webhooks';

/**
 * The admin command line's one dispatcher: the command table, output and error conventions. The `npm run admin`
 * process (cli.ts) and the running server's admin socket (socket.ts) both run commands through it, so a command
 * answers the same words, exit code and messages wherever it runs.
 */

const GROUPS: Group[] = [
  {
    name: 'tools',
    summary: 'The catalogue: list, add, edit, price, show or hide tools, upload their files, their editions',
  },
  { name: 'releases', summary: 'A tool’s releases: add, upload signed files, publish, yank, list' },
  { name: 'orders', summary: 'Orders: list, show, resend the delivery email, refund' },
  { name: 'reconcile', summary: 'Ask Razorpay about open orders once and fulfil the paid ones' },
  {
    name: 'refunds',
    summary: 'Buyers’ refund requests: list, approve (refunds the order), decline with a reason',
  },
  { name: 'messages', summary: 'Contact-form messages: list, show, mark handled, export as CSV' },
  { name: 'mail', summary: 'The mail outbox: counts, failures and why, retry' },
  { name: 'users', summary: 'Accounts and what they bought' },
  {
    name: 'licenses',
    summary: 'Licenses: their devices and seats, suspend or reinstate one, reset a buyer’s allowance',
  },
  { name: 'invoices', summary: 'Tax invoices and credit notes of a period, split for GSTR-1; CSV export' },
  { name: 'coupons', summary: 'Coupon codes: add, list, show (uses and revenue), disable' },
  { name: 'backup', summary: 'Snapshot the embedded database now (the server does it daily)' },
  { name: 'restore', summary: 'Restore an embedded-database snapshot into a fresh DATA_DIR' },
  { name: 'move-to-postgres', summary: 'Copy the embedded database into an empty PostgreSQL database' },
  { name: 'operators', summary: 'Who may use the /admin dashboard: add, remove, list' },
  { name: 'trials', summary: 'Free trials: extend one, or end it now' },
  { name: 'activity', summary: 'The audit log of operator actions, as the dashboard’s Activity shows it' },
  {
    name: 'webhooks',
    summary: 'Signed webhooks to the firm’s other systems: endpoints, deliveries, redeliver',
  },
];

const COMMANDS = [
  ...toolCommands,
  ...editionCommands,
  ...releaseCommands,
  ...orderCommands,
  ...proformaCommands,
  ...reconcileCommands,
  ...refundCommands,
  ...messageCommands,
  ...mailCommands,
  ...userCommands,
  ...licenseCommands,
  ...trialCommands,
  ...invoiceCommands,
  ...couponCommands,
  ...backupCommands,
  ...moveCommands,
  ...operatorCommands,
  ...activityCommands,
  ...webhookCommands,
];

export type CommandLineEnv = AdminEnv & {
  /** Append the stack trace of an unexpected error to stderr (`ADMIN_DEBUG`). */
  debug?: boolean;
};

/** What a run printed and how it ended, as the process would have. */
export type CommandLineResult = { stdout: string; stderr: string; exitCode: number };

const line = (text: string) => (text.endsWith('\n') ? text : `${text}\n`);

/** A run that printed one `admin:` line on stderr and nothing else. */
export function commandRefusal(message: string, exitCode = 1): CommandLineResult {
  return { stdout: '', stderr: `admin: ${line(message)}`, exitCode };
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

/** Runs the words after `npm run admin --` on `env`'s database and returns what to print. Never throws. */
export async function runCommandLine(argv: string[], env: CommandLineEnv): Promise<CommandLineResult> {
  try {
    const parsed = parseCommandLine(argv, GROUPS, COMMANDS);
    if (parsed.kind === 'help') return { stdout: line(parsed.text), stderr: '', exitCode: 0 };
    if (env.inServer && parsed.command.notInServer) throw new CommandError(parsed.command.notInServer);
    const output = await parsed.command.run(env, parsed.input);
    return {
      stdout: line(parsed.json ? toJson(output.data) : output.text),
      stderr: '',
      exitCode: output.exitCode ?? 0,
    };
  } catch (error) {
    const failure = describeFailure(error);
    const result = commandRefusal(failure.line, failure.exitCode);
    if (failure.stack && env.debug) result.stderr += line(failure.stack);
    return result;
  }
}
