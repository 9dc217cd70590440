import { parseArgs } from 'node:util';
import type { ZodType, z } from 'zod';
import type { Snapshot } from '../db/backup';
import { ConfigError, loadConfig } from '../kernel/config';
import type { AppContext } from '../kernel/context';
import { DomainError } from '../kernel/domain-error';
import type { Actor } from '../operator/audit';

/**
 * The admin command line's skeleton: commands declare their words, arguments and options once, and get argument
 * parsing, `--help`, `--json` and the error conventions from here.
 *
 * Exit codes: 0 done; 1 refused (unknown id, invalid value, wrong state, gateway or database trouble);
 * 2 the command line itself is wrong (unknown command or option, missing argument).
 */

export const INVOCATION = 'npm run admin --';

/** The command was understood but cannot be done; nothing was changed. Exit code 1. */
export class CommandError extends Error {
  readonly exitCode: number = 1;
  constructor(message: string) {
    super(message);
    this.name = 'CommandError';
  }
}

/** The command line is malformed. Exit code 2; the message points at the right --help. */
export class UsageError extends CommandError {
  override readonly exitCode = 2;
  constructor(
    message: string,
    readonly helpFor?: string,
  ) {
    super(message);
    this.name = 'UsageError';
  }
}

export type OptionSpec = {
  type: 'string' | 'boolean';
  short?: string;
  /** Placeholder shown in help for string options, e.g. "<amount>". */
  value?: string;
  description: string;
};

export type ArgumentSpec = { name: string; description: string; optional?: boolean };

type OptionValues<O extends Record<string, OptionSpec>> = {
  [K in keyof O]?: O[K] extends { type: 'boolean' }
    ? boolean
    : O[K] extends { type: 'string' }
      ? string
      : string | boolean;
};

export type CommandInput<O extends Record<string, OptionSpec>> = {
  options: OptionValues<O>;
  /** The positional arguments, one per declared argument (missing optional ones are undefined). */
  args: Array<string | undefined>;
};

/**
 * What a command produced: `data` is printed for --json, `text` for people. `exitCode` 1 reports a run that
 * completed with problems (listed in the output) to scripts.
 */
export type CommandOutput = { data: unknown; text: string; exitCode?: number };

/** The server's own context, opened on the configured database. */
export type AdminContext = AppContext;

/**
 * What a command runs with. The database is opened on first use, so a command checks its input first: a typo
 * is reported as such even while a running server holds the embedded database.
 */
export type AdminEnv = {
  /** Where relative file paths start: the operator's working directory, also when the server runs the command. */
  cwd: string;
  open(): Promise<AdminContext>;
  /** The open embedded database's snapshot (opening it like `open`); undefined on PostgreSQL. */
  snapshot(): Promise<Snapshot | undefined>;
  /** Who runs the command (`cli:<OS user>` in the audit log), also when the server runs it for them. */
  actor: Actor;
  /** The serving process runs the command for a command line on its admin socket (see socket.ts). */
  inServer?: boolean;
};

export type Command = {
  /** The words that select it, e.g. ['tools', 'add']. */
  path: string[];
  summary: string;
  args: ArgumentSpec[];
  options: Record<string, OptionSpec>;
  /** A complete, working example (without the `npm run admin --` prefix). */
  example: string;
  /** Extra paragraphs for --help. */
  details?: string;
  /** Why the running server cannot run this command for the command line (it needs the server stopped). */
  notInServer?: string;
  run(env: AdminEnv, input: CommandInput<Record<string, OptionSpec>>): Promise<CommandOutput>;
};

export function defineCommand<O extends Record<string, OptionSpec>>(spec: {
  path: string[];
  summary: string;
  args?: ArgumentSpec[];
  options?: O;
  example: string;
  details?: string;
  notInServer?: string;
  run(env: AdminEnv, input: CommandInput<O>): Promise<CommandOutput>;
}): Command {
  return {
    path: spec.path,
    summary: spec.summary,
    args: spec.args ?? [],
    options: spec.options ?? {},
    example: spec.example,
    details: spec.details,
    notInServer: spec.notInServer,
    run: spec.run as Command['run'],
  };
}

/** Options every command takes. */
const GLOBAL_OPTIONS: Record<string, OptionSpec> = {
  json: { type: 'boolean', description: 'Print the result as JSON (for scripts)' },
  help: { type: 'boolean', short: 'h', description: 'Show this help' },
};

export type Group = { name: string; summary: string };

export type Parsed =
  | { kind: 'help'; text: string }
  | { kind: 'run'; command: Command; input: CommandInput<Record<string, OptionSpec>>; json: boolean };

const commandName = (command: Command) => command.path.join(' ');

function usageLine(command: Command): string {
  const args = command.args.map((arg) => (arg.optional ? `[${arg.name}]` : `<${arg.name}>`));
  const hasOptions = Object.keys(command.options).length > 0;
  return [INVOCATION, commandName(command), ...args, hasOptions ? '[options]' : ''].filter(Boolean).join(' ');
}

function optionLines(options: Record<string, OptionSpec>): string[] {
  const rows = Object.entries(options).map(([name, spec]) => {
    const flag = `${spec.short ? `-${spec.short}, ` : ''}--${name}${spec.value ? ` ${spec.value}` : ''}`;
    return [flag, spec.description] as const;
  });
  const width = Math.max(...rows.map(([flag]) => flag.length));
  return rows.map(([flag, description]) => `  ${flag.padEnd(width)}  ${description}`);
}

export function commandHelp(command: Command): string {
  const lines = [`${command.summary}`, '', `Usage: ${usageLine(command)}`];
  if (command.args.length > 0) {
    const width = Math.max(...command.args.map((arg) => arg.name.length));
    lines.push('', 'Arguments:', ...command.args.map((a) => `  ${a.name.padEnd(width)}  ${a.description}`));
  }
  lines.push('', 'Options:', ...optionLines({ ...command.options, ...GLOBAL_OPTIONS }));
  if (command.details) lines.push('', command.details);
  lines.push('', 'Example:', `  ${INVOCATION} ${command.example}`);
  return lines.join('\n');
}

function groupHelp(group: Group, commands: Command[]): string {
  const members = commands.filter((command) => command.path[0] === group.name);
  const width = Math.max(...members.map((command) => commandName(command).length));
  return [
    group.summary,
    '',
    'Commands:',
    ...members.map((command) => `  ${commandName(command).padEnd(width)}  ${command.summary}`),
    '',
    `Run "${INVOCATION} ${group.name} <command> --help" for a command's arguments and options.`,
  ].join('\n');
}

export function overviewHelp(groups: Group[], commands: Command[]): string {
  const width = Math.max(...groups.map((group) => group.name.length));
  return [
    'Runs the shop from the command line, against the same configuration and database as the server.',
    '',
    `Usage: ${INVOCATION} <command> [arguments] [options]`,
    '',
    'Commands:',
    ...groups.map((group) => `  ${group.name.padEnd(width)}  ${group.summary}`),
    '',
    'Every command takes --help, and --json to print JSON for scripts.',
    `Run "${INVOCATION} <command> --help" for more, e.g. "${INVOCATION} ${commands[0] ? commandName(commands[0]) : 'tools list'} --help".`,
  ].join('\n');
}

/**
 * parseArgs reads `--price-inr -5` as an option without a value. A negative number after a string option is
 * meant as its value; passing it on lets the command say what is wrong with it.
 */
function joinNegativeNumbers(args: string[], options: Record<string, OptionSpec>): string[] {
  const result: string[] = [];
  for (let i = 0; i < args.length; i++) {
    const arg = args[i] as string;
    const next = args[i + 1];
    const name = arg.startsWith('--') ? arg.slice(2) : undefined;
    if (name && options[name]?.type === 'string' && next !== undefined && /^-\d/.test(next)) {
      result.push(`${arg}=${next}`);
      i++;
    } else {
      result.push(arg);
    }
  }
  return result;
}

function parseError(error: unknown, command: Command): UsageError {
  const code = (error as { code?: string }).code;
  const help = commandName(command);
  const message = error instanceof Error ? error.message : String(error);
  if (code === 'ERR_PARSE_ARGS_UNKNOWN_OPTION') {
    const option = /'([^']+)'/.exec(message)?.[1] ?? 'option';
    return new UsageError(`Unknown option ${option} for "${help}".`, help);
  }
  if (code === 'ERR_PARSE_ARGS_INVALID_OPTION_VALUE') {
    const option = /'(--?[\w-]+)/.exec(message)?.[1] ?? 'An option';
    const spec = command.options[option.replace(/^-+/, '')];
    return spec?.type === 'boolean'
      ? new UsageError(`${option} takes no value.`, help)
      : new UsageError(`${option} needs a value.`, help);
  }
  return new UsageError(message.split('\n')[0] ?? message, help);
}

/** Turns the words after `npm run admin --` into a command and its input, or into a help text. */
export function parseCommandLine(argv: string[], groups: Group[], commands: Command[]): Parsed {
  const first = argv[0];
  if (first === undefined || first === '--help' || first === '-h' || first === 'help') {
    const topic = first === 'help' ? argv.slice(1) : [];
    if (topic.length > 0) return parseCommandLine([...topic, '--help'], groups, commands);
    return { kind: 'help', text: overviewHelp(groups, commands) };
  }

  const matching = commands
    .filter((command) => command.path.every((word, index) => argv[index] === word))
    .sort((a, b) => b.path.length - a.path.length);
  const command = matching[0];
  if (!command) {
    const group = groups.find((candidate) => candidate.name === first);
    if (!group) {
      throw new UsageError(
        `Unknown command "${first}". Commands: ${groups.map((g) => g.name).join(', ')}.`,
        undefined,
      );
    }
    const second = argv[1];
    if (second === undefined || second === '--help' || second === '-h') {
      return { kind: 'help', text: groupHelp(group, commands) };
    }
    const names = commands.filter((c) => c.path[0] === group.name).map((c) => c.path.slice(1).join(' '));
    throw new UsageError(`Unknown command "${first} ${second}". Commands: ${names.join(', ')}.`, group.name);
  }

  const rest = argv.slice(command.path.length);
  const options = { ...command.options, ...GLOBAL_OPTIONS };
  let parsed: ReturnType<typeof parseArgs>;
  try {
    parsed = parseArgs({
      args: joinNegativeNumbers(rest, options),
      options: Object.fromEntries(
        Object.entries(options).map(([name, spec]) => [
          name,
          spec.short ? { type: spec.type, short: spec.short } : { type: spec.type },
        ]),
      ),
      allowPositionals: true,
      strict: true,
    });
  } catch (error) {
    throw parseError(error, command);
  }
  const values = parsed.values as Record<string, string | boolean | undefined>;
  if (values.help) return { kind: 'help', text: commandHelp(command) };

  const name = commandName(command);
  const positionals = parsed.positionals;
  if (positionals.length > command.args.length) {
    throw new UsageError(`Unexpected argument "${positionals[command.args.length]}" for "${name}".`, name);
  }
  const missing = command.args.find((arg, index) => !arg.optional && positionals[index] === undefined);
  if (missing) throw new UsageError(`"${name}" needs <${missing.name}>: ${missing.description}.`, name);

  const { json, help: _help, ...commandOptions } = values;
  return {
    kind: 'run',
    command,
    input: { options: commandOptions, args: command.args.map((_arg, index) => positionals[index]) },
    json: json === true,
  };
}

/** The value of a required option, or a usage error naming it. */
export function requireOption<T>(value: T | undefined, name: string, command: string): T {
  if (value === undefined) throw new UsageError(`"${command}" needs --${name}.`, command);
  return value;
}

/** The value of a required argument (parseCommandLine has already checked it is there). */
export function argument(input: { args: Array<string | undefined> }, index: number): string {
  const value = input.args[index];
  if (value === undefined) throw new Error(`argument ${index} missing after parsing`);
  return value;
}

/**
 * What the operator typed, by where they typed it: options by their name, arguments by theirs; `files`, the text of
 * files that options name (`--description-file`), parsed in the option's place and refused by its path.
 */
export type TypedInput = {
  options?: Record<string, string | boolean | undefined>;
  args?: Record<string, string | undefined>;
  files?: Record<string, string>;
};

/**
 * A command's options and arguments parsed once, by one schema over `{ <option or argument name>: typed }` (the
 * shared schema the dashboard parses the same input with, where there is one: decision 053), before the database is
 * opened. The first problem refuses the command (exit 1), named as the operator typed it: `--price-inr "-5": The price
 * must be positive.`, `<email> "asha": Enter a valid email address.`; a schema whose messages name their own field
 * (the webhook endpoint's) is quoted as it is. `fields` names the option or argument of a field the schema calls
 * otherwise (after a transform into the operation's own names).
 */
export function parseCommandInput<S extends ZodType>(
  schema: S,
  typed: TypedInput,
  fields: Record<string, string> = {},
): z.output<S> {
  const parsed = schema.safeParse({ ...typed.args, ...typed.options, ...typed.files });
  if (parsed.success) return parsed.data;
  const issue = parsed.error.issues[0];
  const message = issue?.message ?? 'invalid';
  const field = String(issue?.path[0] ?? '');
  const key = fields[field] ?? field;
  const fromOption = typed.options !== undefined && key in typed.options;
  const label = fromOption ? `--${key}` : typed.args && key in typed.args ? `<${key}>` : field;
  const value = fromOption ? typed.options?.[key] : typed.args?.[key];
  if (!label || message.startsWith(`${field}:`)) throw new DomainError('invalid', message);
  const shown = typeof value === 'string' ? ` "${value}"` : '';
  throw new DomainError('invalid', `${label}${shown}: ${message}`);
}

/** The configuration, for the commands that work on the database's files without opening it; invalid: refused. */
export function configuredOrRefused() {
  try {
    return loadConfig();
  } catch (error) {
    if (error instanceof ConfigError)
      throw new CommandError(`Invalid configuration: ${error.problems.join('; ')}`);
    throw error;
  }
}
