import { constants, createReadStream } from 'node:fs';
import { access, readFile, stat } from 'node:fs/promises';
import path from 'node:path';
import { z } from 'zod';
import { type NewTool, type ToolChanges, toolChangesSchema } from '../../shared/dashboard';
import { formatSubunits, usdCentsFromInrPaise } from '../../shared/money';
import { defaultPackageId, packageIdOf } from '../../shared/releases';
import { FILE_TOO_LARGE, TOOL_FILE_MAX_BYTES, TOOL_TEXT_MAX } from '../../shared/tool-rules';
import { periodText } from '../../shared/update-periods';
import { type ToolRow, toApiTool } from '../catalogue/catalogue';
import { attachToolFile, createTool, listTools, updateTool } from '../catalogue/operator';
import { details, formatBytes, formatTime, shortId, table } from './format';
import {
  type AdminEnv,
  argument,
  CommandError,
  type CommandOutput,
  defineCommand,
  type OptionSpec,
  parseCommandInput,
  requireOption,
} from './framework';

type Delivery = ToolRow['delivery'];

/** A tool as --json prints it: the API's Tool fields, plus what only the operator sees. */
export function toolForCommandLine(row: ToolRow) {
  const { purchased: _purchased, ...api } = toApiTool(row, false, []);
  return {
    ...api,
    delivery: row.delivery,
    activationLimit: row.activationLimit,
    licenseModel: row.licenseModel,
    heartbeatMinutes: row.heartbeatMinutes,
    offlineDays: row.offlineDays,
    active: row.active,
    sortOrder: row.sortOrder,
    packageId: packageIdOf(row),
    /** Months of updates a purchase includes, null: lifetime (decision 059); the renewal's prices in subunits. */
    updatesMonths: row.updatesMonths,
    renewalPriceInrPaise: row.renewalPriceInrPaise,
    renewalPriceUsdCents: row.renewalPriceUsdCents,
    file: row.fileKey
      ? { name: row.fileName, size: row.fileSize, sha256: row.fileSha256, key: row.fileKey }
      : null,
    createdAt: row.createdAt,
    updatedAt: row.updatedAt,
  };
}

function status(row: ToolRow): string {
  if (!row.active) return row.comingSoon ? 'inactive (coming soon)' : 'inactive';
  return row.comingSoon ? 'coming soon' : 'on sale';
}

function usdText(row: ToolRow): string {
  if (row.priceUsdCents !== null) return formatSubunits(row.priceUsdCents, 'USD');
  return `${formatSubunits(usdCentsFromInrPaise(row.priceInrPaise), 'USD')} (INR/75)`;
}

const updatesText = (row: ToolRow) =>
  row.updatesMonths === null
    ? periodText(null)
    : `${periodText(row.updatesMonths)}, renewal ${row.renewalPriceInrPaise === null ? 'not priced' : formatSubunits(row.renewalPriceInrPaise, 'INR')} / ${row.renewalPriceUsdCents === null ? 'INR/75' : formatSubunits(row.renewalPriceUsdCents, 'USD')}`;

const deliveryText = (delivery: Delivery) => (delivery === 'credentials' ? 'credentials' : 'license key');

function toolDetails(row: ToolRow): string {
  return details([
    ['ID', row.id],
    ['Name', row.name],
    ['Device', row.device ?? 'none'],
    ['Price INR', formatSubunits(row.priceInrPaise, 'INR')],
    ['Price USD', usdText(row)],
    ['Delivery', deliveryText(row.delivery)],
    ['Activation limit', `${row.activationLimit} machines per license`],
    [
      'License model',
      row.licenseModel === 'floating'
        ? `floating, heartbeat every ${row.heartbeatMinutes} min (a quiet machine's seat frees after ${2 * row.heartbeatMinutes} min)`
        : 'per device',
    ],
    [
      'Offline activation',
      row.licenseModel === 'floating'
        ? 'none (floating licenses need the network)'
        : `response files last ${row.offlineDays} days (a trial's: until it ends)`,
    ],
    ['Free trial', row.trialDays > 0 ? `${row.trialDays} days` : 'none'],
    ['Updates', updatesText(row)],
    ['Status', status(row)],
    ['Sort order', row.sortOrder],
    ['Icon', row.icon],
    ['Package id', row.packageId ?? `${defaultPackageId(row.name)} (from the name)`],
    [
      'File',
      row.fileKey ? `${row.fileName} (${formatBytes(row.fileSize)}, sha256 ${row.fileSha256})` : 'none',
    ],
    ['Updated', formatTime(row.updatedAt)],
    ['Description', row.description],
  ]);
}

const toolOutput = (row: ToolRow, headline: string): CommandOutput => ({
  data: toolForCommandLine(row),
  text: `${headline}\n\n${toolDetails(row)}`,
});

// ── Fields: the command line's options, parsed by the catalogue's own tool fields ────────────────────────────

/** The tool field each option sets (shared/dashboard.ts `toolChangesSchema`, which the dashboard's form shares). */
const FIELD_OF_OPTION = {
  name: 'name',
  description: 'description',
  device: 'device',
  'price-inr': 'priceINR',
  'price-usd': 'priceUSD',
  delivery: 'delivery',
  icon: 'icon',
  'sort-order': 'sortOrder',
  'activation-limit': 'activationLimit',
  'trial-days': 'trialDays',
  'package-id': 'packageId',
  heartbeat: 'heartbeatMinutes',
  'updates-for': 'updatesMonths',
  'renewal-price-inr': 'renewalPriceINR',
  'renewal-price-usd': 'renewalPriceUSD',
  'offline-days': 'offlineDays',
} as const;

type FieldOption = keyof typeof FIELD_OF_OPTION;

/** The command line's own words for a value, as the form spells it: --device mac, --price-usd none, … */
const WORDS: Partial<Record<FieldOption, Record<string, string>>> = {
  device: { windows: 'Windows', macos: 'macOS', mac: 'macOS', none: 'none' },
  'price-usd': { none: '' },
  delivery: {
    'license-key': 'license_key',
    license_key: 'license_key',
    key: 'license_key',
    credentials: 'credentials',
  },
  'package-id': { none: '' },
  'renewal-price-inr': { none: '' },
  'renewal-price-usd': { none: '' },
};

/** A description's characters take at most four bytes each in UTF-8. */
const DESCRIPTION_FILE_LIMIT = {
  bytes: 4 * TOOL_TEXT_MAX.description,
  problem: `a description is at most ${TOOL_TEXT_MAX.description} characters`,
};

const spelledAsForm = (option: FieldOption, typed: string) =>
  WORDS[option]?.[typed.trim().toLowerCase()] ?? typed;

/** The full path of a file the operator named, once it is known to be a readable, non-empty file of a size we take. */
export async function userFile(
  env: AdminEnv,
  typed: string,
  limit = { bytes: TOOL_FILE_MAX_BYTES, problem: FILE_TOO_LARGE },
): Promise<string> {
  const file = path.resolve(env.cwd, typed);
  try {
    const info = await stat(file);
    if (!info.isFile()) throw new CommandError(`${typed} is not a file.`);
    if (info.size === 0) throw new CommandError(`${typed} is empty.`);
    if (info.size > limit.bytes) throw new CommandError(`${typed}: ${limit.problem}.`);
    await access(file, constants.R_OK);
    return file;
  } catch (error) {
    if (error instanceof CommandError) throw error;
    const code = (error as NodeJS.ErrnoException).code;
    if (code === 'ENOENT') throw new CommandError(`No such file: ${typed}.`);
    if (code === 'EACCES') throw new CommandError(`Cannot read ${typed}: permission denied.`);
    throw error;
  }
}

const FIELD_OPTIONS = {
  name: { type: 'string', value: '<text>', description: 'Name shown on the tool card' },
  description: { type: 'string', value: '<text>', description: 'Description shown on the tool card' },
  'description-file': {
    type: 'string',
    value: '<path>',
    description: 'Read the description from a UTF-8 text file instead',
  },
  device: { type: 'string', value: '<Windows|macOS|none>', description: 'Platform the tool runs on' },
  'price-inr': { type: 'string', value: '<rupees>', description: 'Price in INR, e.g. 499 or 1499.50' },
  'price-usd': {
    type: 'string',
    value: '<dollars|none>',
    description: 'Price in USD, e.g. 7.99; none: the INR price / 75',
  },
  delivery: {
    type: 'string',
    value: '<license-key|credentials>',
    description: 'What a buyer receives by email',
  },
  icon: { type: 'string', value: '<path|hint>', description: 'Card icon: a same-site image path or a hint' },
  'sort-order': { type: 'string', value: '<n>', description: 'Position in the catalogue (smaller first)' },
  'activation-limit': {
    type: 'string',
    value: '<n>',
    description: 'Machines one license may be activated on at a time (default 2)',
  },
  'trial-days': {
    type: 'string',
    value: '<n>',
    description: 'Length of the free trial a signed-in visitor may start (0: no trial, the default)',
  },
  'package-id': {
    type: 'string',
    value: '<id|none>',
    description: 'Velopack package id (vpk pack --packId); none: made from the name',
  },
  floating: {
    type: 'boolean',
    description: 'Floating licenses: machines hold leases renewed by heartbeats (docs/license-api.md)',
  },
  'per-device': {
    type: 'boolean',
    description: 'Per-device licenses, the default: a seat is held until freed',
  },
  heartbeat: {
    type: 'string',
    value: '<10m|2h>',
    description: 'A floating tool’s heartbeat interval (default 10m, at least 1m)',
  },
  'updates-for': {
    type: 'string',
    value: '<12m|lifetime>',
    description: 'Updates a purchase includes (a tool without editions): months, or lifetime (the default)',
  },
  'renewal-price-inr': {
    type: 'string',
    value: '<rupees|none>',
    description: 'What another period of updates costs in INR (needed with a number of months)',
  },
  'renewal-price-usd': {
    type: 'string',
    value: '<dollars|none>',
    description: 'The renewal price in USD; none: the INR renewal price / 75',
  },
  'offline-days': {
    type: 'string',
    value: '<n>',
    description:
      'Days a computer activated without internet runs on its response file (1 to 365, default 365)',
  },
} as const satisfies Record<string, OptionSpec>;

type FieldOptions = {
  [K in keyof typeof FIELD_OPTIONS]?: (typeof FIELD_OPTIONS)[K]['type'] extends 'boolean' ? boolean : string;
};

/** The option each tool field comes from, for a refusal's name (the inverse of FIELD_OF_OPTION). */
const OPTION_OF_FIELD: Record<string, string> = {
  ...Object.fromEntries(Object.entries(FIELD_OF_OPTION).map(([option, field]) => [field, option])),
  description: 'description',
};

/**
 * The options of the tool commands, spelled as the dashboard's form spells them, then the tool's fields parsed by the
 * catalogue's schema (`toolChangesSchema`, which the form shares): only the fields given.
 */
const fieldsInput = z
  .object(
    Object.fromEntries(
      Object.keys(FIELD_OPTIONS).map((option) => [
        option,
        FIELD_OPTIONS[option as keyof typeof FIELD_OPTIONS].type === 'boolean'
          ? z.boolean().optional()
          : z.string().optional(),
      ]),
    ),
  )
  .superRefine((typed, check) => {
    if (typed.description !== undefined && typed['description-file'] !== undefined)
      check.addIssue({ code: 'custom', message: 'Give --description or --description-file, not both.' });
    if (typed.floating && typed['per-device'])
      check.addIssue({ code: 'custom', message: 'Give --floating or --per-device, not both.' });
  })
  .transform((typed) => {
    const fields: Record<string, unknown> = {};
    for (const option of Object.keys(FIELD_OF_OPTION) as FieldOption[]) {
      const value = typed[option];
      if (typeof value === 'string') fields[FIELD_OF_OPTION[option]] = spelledAsForm(option, value);
    }
    // The text of --description-file, which parseCommandInput gives in the option's place.
    if (typeof typed['description-file'] === 'string') fields.description = typed['description-file'];
    if (typed.floating || typed['per-device'])
      fields.licenseModel = typed.floating ? 'floating' : 'per-device';
    return fields;
  })
  .pipe(toolChangesSchema);

/**
 * The tool fields the options ask for (only those given), parsed once before the database is opened; a refusal
 * names the option and what was typed.
 */
async function fieldChanges(env: AdminEnv, options: FieldOptions): Promise<ToolChanges> {
  const descriptionFile = options['description-file'];
  const description =
    descriptionFile === undefined
      ? undefined
      : await readFile(await userFile(env, descriptionFile, DESCRIPTION_FILE_LIMIT), 'utf8');
  return parseCommandInput(
    fieldsInput,
    { options, files: description === undefined ? {} : { 'description-file': description } },
    {
      ...OPTION_OF_FIELD,
      ...(descriptionFile === undefined ? {} : { description: 'description-file' }),
      licenseModel: options.floating ? 'floating' : 'per-device',
    },
  );
}

/** Applies changes through the catalogue service, once the command's input was checked. */
async function changeTool(env: AdminEnv, typed: string, changes: ToolChanges) {
  const ctx = await env.open();
  return updateTool(ctx, typed, changes, env.actor);
}

// ── Commands ────────────────────────────────────────────────────────────────────────────────────────────────

const list = defineCommand({
  path: ['tools', 'list'],
  summary: 'List every tool: prices, delivery, whether it is on sale, its download file',
  options: {
    active: { type: 'boolean', description: 'Only tools on the site (active ones)' },
  },
  example: 'tools list',
  async run(env, { options }) {
    // A read: it shows the catalogue as it is and writes nothing (the server seeds the default one at start).
    const ctx = await env.open();
    const { rows } = await listTools(ctx, {
      activeOnly: options.active === true,
      sort: 'catalogue',
      dir: 'asc',
    });
    return {
      data: rows.map(toolForCommandLine),
      text: table(
        ['ID', 'NAME', 'DEVICE', 'INR', 'USD', 'DELIVERY', 'STATUS', 'FILE'],
        rows.map((row) => [
          shortId(row.id),
          row.name,
          row.device ?? 'none',
          formatSubunits(row.priceInrPaise, 'INR'),
          usdText(row),
          deliveryText(row.delivery),
          status(row),
          row.fileKey ? `${row.fileName} (${formatBytes(row.fileSize)})` : 'none',
        ]),
        'No tools yet. Add one with "tools add".',
      ),
    };
  },
});

const add = defineCommand({
  path: ['tools', 'add'],
  summary: 'Add a tool to the catalogue',
  options: {
    ...FIELD_OPTIONS,
    'coming-soon': { type: 'boolean', description: 'Show it as coming soon (cannot be bought yet)' },
    inactive: { type: 'boolean', description: 'Add it hidden from the site' },
  },
  example:
    'tools add --name "PDF Toolkit" --description "Merge, split and compress PDFs offline." --device Windows --price-inr 499 --price-usd 7.99',
  details:
    'Required: --name, --description (or --description-file), --price-inr. Without --price-usd, USD buyers pay\n' +
    'the INR price / 75. --delivery defaults to license-key. Attach the download with "tools upload".',
  async run(env, { options }) {
    const command = 'tools add';
    const fields = await fieldChanges(env, options);
    const tool: NewTool = {
      ...fields,
      name: requireOption(fields.name, 'name', command),
      description: requireOption(fields.description, 'description', command),
      priceINR: requireOption(fields.priceINR, 'price-inr', command),
      comingSoon: options['coming-soon'] === true,
      active: options.inactive !== true,
    };
    const ctx = await env.open();
    const row = await createTool(ctx, tool, env.actor);
    const next = row.fileKey ? '' : ` Attach its download with "tools upload ${shortId(row.id)} <file>".`;
    return toolOutput(row, `Added ${row.name} (${shortId(row.id)}).${next}`);
  },
});

const edit = defineCommand({
  path: ['tools', 'edit'],
  summary:
    'Change a tool’s name, description, device, prices, delivery, icon, position, package id, license model, update period or offline period',
  args: [{ name: 'id', description: 'the tool (its id or the start of it, as "tools list" shows)' }],
  options: FIELD_OPTIONS,
  example: 'tools edit 1a2b3c4d --name "PDF Toolkit Pro" --device macOS',
  details:
    'A tool with editions sets its update period per edition ("tools editions edit"). A changed update period\n' +
    'applies to new purchases only; --updates-for lifetime goes back to every update for life.',
  async run(env, input) {
    const changes = await fieldChanges(env, input.options);
    if (Object.keys(changes).length === 0) {
      throw new CommandError('Nothing to change: give at least one option, e.g. --name.');
    }
    const { after } = await changeTool(env, argument(input, 0), changes);
    return toolOutput(after, `Updated ${after.name} (${shortId(after.id)}).`);
  },
});

const setPrice = defineCommand({
  path: ['tools', 'set-price'],
  summary: 'Change a tool’s INR and/or USD price',
  args: [{ name: 'id', description: 'the tool (its id or the start of it)' }],
  options: { 'price-inr': FIELD_OPTIONS['price-inr'], 'price-usd': FIELD_OPTIONS['price-usd'] },
  example: 'tools set-price 1a2b3c4d --price-inr 599 --price-usd 8.99',
  details: 'Orders already created keep the price they were created with.',
  async run(env, input) {
    const { options } = input;
    if (options['price-inr'] === undefined && options['price-usd'] === undefined) {
      throw new CommandError('Give --price-inr, --price-usd or both.');
    }
    const changes = await fieldChanges(env, options);
    const { before, after } = await changeTool(env, argument(input, 0), changes);
    const was = `${formatSubunits(before.priceInrPaise, 'INR')} / ${usdText(before)}`;
    const now = `${formatSubunits(after.priceInrPaise, 'INR')} / ${usdText(after)}`;
    return toolOutput(after, `${after.name} (${shortId(after.id)}) now costs ${now} (was ${was}).`);
  },
});

const comingSoon = defineCommand({
  path: ['tools', 'coming-soon'],
  summary: 'Mark a tool as coming soon (on) or buyable (off)',
  args: [
    { name: 'id', description: 'the tool (its id or the start of it)' },
    { name: 'on|off', description: 'on: shown but cannot be bought; off: can be bought' },
  ],
  example: 'tools coming-soon 1a2b3c4d off',
  async run(env, input) {
    const state = argument(input, 1).trim().toLowerCase();
    if (state !== 'on' && state !== 'off') {
      throw new CommandError(`Say on or off after the tool id, got "${argument(input, 1)}".`);
    }
    const { after } = await changeTool(env, argument(input, 0), { comingSoon: state === 'on' });
    return toolOutput(
      after,
      `${after.name} (${shortId(after.id)}) is ${after.comingSoon ? 'coming soon' : 'buyable'}${after.active ? '' : ', but inactive'}.`,
    );
  },
});

const activate = defineCommand({
  path: ['tools', 'activate'],
  summary: 'Show a tool on the site again',
  args: [{ name: 'id', description: 'the tool (its id or the start of it)' }],
  example: 'tools activate 1a2b3c4d',
  async run(env, input) {
    const { after } = await changeTool(env, argument(input, 0), { active: true });
    return toolOutput(after, `${after.name} (${shortId(after.id)}) is on the site.`);
  },
});

const deactivate = defineCommand({
  path: ['tools', 'deactivate'],
  summary: 'Hide a tool from the site; buyers keep their downloads and licenses',
  args: [{ name: 'id', description: 'the tool (its id or the start of it)' }],
  example: 'tools deactivate 1a2b3c4d',
  async run(env, input) {
    const { after } = await changeTool(env, argument(input, 0), { active: false });
    return toolOutput(after, `${after.name} (${shortId(after.id)}) is hidden from the site.`);
  },
});

const upload = defineCommand({
  path: ['tools', 'upload'],
  summary: 'Attach or replace a tool’s download file',
  args: [
    { name: 'id', description: 'the tool (its id or the start of it)' },
    { name: 'file', description: 'the file buyers download (its name is the name they get)' },
  ],
  example: 'tools upload 1a2b3c4d ./dist/pdf-toolkit-setup.zip',
  details:
    'The file is stored by the storage module (DATA_DIR/files) and its SHA-256 recorded. Download links already\n' +
    'sent serve the new file from now on.',
  async run(env, input) {
    const typedFile = argument(input, 1);
    const file = await userFile(env, typedFile);
    const fileName = path.basename(typedFile).slice(0, 200);
    const ctx = await env.open();
    const { before, after, stored, removeProblem } = await attachToolFile(
      ctx,
      argument(input, 0),
      {
        name: fileName,
        stream: createReadStream(file),
      },
      env.actor,
    );
    const note = removeProblem
      ? ` The previous file ${before.fileKey} could not be removed: ${removeProblem}`
      : '';
    const verb = before.fileKey ? `Replaced ${before.fileName} with` : 'Attached';
    return toolOutput(
      after,
      `${verb} ${fileName} (${formatBytes(stored.size)}, sha256 ${stored.sha256}) for ${after.name} (${shortId(after.id)}).${note}`,
    );
  },
});

export const toolCommands = [list, add, edit, setPrice, comingSoon, activate, deactivate, upload];
