import { z } from 'zod';
import { priceSchema, updatesForSchema, usdPriceSchema } from '../../shared/dashboard';
import { editionChangesSchema, newEditionSchema } from '../../shared/edition-schemas';
import { formatSubunits } from '../../shared/money';
import { ACTIVATION_LIMIT_PROBLEM, asSentence, parseActivationLimitText } from '../../shared/tool-rules';
import { periodText } from '../../shared/update-periods';
import { addEdition, type EditionRow, editEdition, editionsOf, toEditionView } from '../catalogue/editions';
import { findToolByIdOrName } from '../operator/tool-lookup';
import { details, shortId, table } from './format';
import { argument, type CommandOutput, defineCommand, type OptionSpec, parseCommandInput } from './framework';

/**
 * `tools editions …`: a tool's editions (decision 056) and their update periods (decision 059), parsed by the
 * shared edition schemas the dashboard's tool page parses with, changed through the catalogue's audited operations.
 */

type ToolRow = Awaited<ReturnType<typeof findToolByIdOrName>>;

const TOOL_ARG = { name: 'tool', description: 'the tool: its name, or its id or the start of it' };

const EDITION_OPTIONS = {
  name: { type: 'string', value: '<text>', description: 'The edition’s name, e.g. Pro' },
  'price-inr': { type: 'string', value: '<rupees>', description: 'Price in INR, e.g. 2999' },
  'price-usd': {
    type: 'string',
    value: '<dollars|none>',
    description: 'Price in USD, e.g. 39; none: the INR price / 75',
  },
  entitlements: {
    type: 'string',
    value: '<codes>',
    description: 'What a license of it unlocks, comma-separated codes, e.g. ocr,batch ("" for none)',
  },
  'device-limit': {
    type: 'string',
    value: '<n|none>',
    description: 'Machines one license runs on at a time; none: the tool’s activation limit',
  },
  'updates-for': {
    type: 'string',
    value: '<12m|lifetime>',
    description: 'Updates a purchase includes: a number of months, or lifetime (the default)',
  },
  'renewal-price-inr': {
    type: 'string',
    value: '<rupees>',
    description: 'What another period of updates costs in INR (needed with a number of months)',
  },
  'renewal-price-usd': {
    type: 'string',
    value: '<dollars|none>',
    description: 'The renewal price in USD; none: the INR renewal price / 75',
  },
  trial: { type: 'boolean', description: 'A free trial of the tool runs as this edition' },
} as const satisfies Record<string, OptionSpec>;

/** The edition field each option sets, and back (a refusal names the option the operator typed). */
const FIELD_OF_OPTION = {
  name: 'name',
  'price-inr': 'priceInrPaise',
  'price-usd': 'priceUsdCents',
  entitlements: 'entitlements',
  'device-limit': 'deviceLimit',
  'updates-for': 'updatesMonths',
  'renewal-price-inr': 'renewalPriceInrPaise',
  'renewal-price-usd': 'renewalPriceUsdCents',
  trial: 'trial',
} as const;
const OPTION_OF_FIELD: Record<string, string> = Object.fromEntries(
  Object.entries(FIELD_OF_OPTION).map(([option, field]) => [field, option]),
);

/** "none" clears an optional value, as in `tools edit --price-usd none`. */
const orNone = <T extends z.ZodType<unknown, string>>(schema: T) =>
  z
    .string()
    .transform((text) => (text.trim().toLowerCase() === 'none' ? '' : text))
    .pipe(schema);

/** The options as typed, each by the shared rule for its kind of value, renamed to the edition's fields. */
const typedEdition = z
  .object({
    name: z.string().optional(),
    'price-inr': priceSchema.optional(),
    'price-usd': orNone(usdPriceSchema).optional(),
    entitlements: z
      .string()
      .optional()
      .transform((text) =>
        text
          ?.split(',')
          .map((code) => code.trim())
          .filter(Boolean),
      ),
    'device-limit': orNone(
      z.string().transform((text, issue) => {
        if (text === '') return null;
        const limit = parseActivationLimitText(text);
        if (limit !== undefined) return limit;
        issue.addIssue({ code: 'custom', message: asSentence(ACTIVATION_LIMIT_PROBLEM) });
        return z.NEVER;
      }),
    ).optional(),
    'updates-for': updatesForSchema.optional(),
    'renewal-price-inr': orNone(usdPriceSchema).optional(),
    'renewal-price-usd': orNone(usdPriceSchema).optional(),
    trial: z.boolean().optional(),
  })
  .transform((typed) =>
    Object.fromEntries(
      Object.entries(typed)
        .filter(([option, value]) => value !== undefined && !(option === 'trial' && value === false))
        .map(([option, value]) => [FIELD_OF_OPTION[option as keyof typeof FIELD_OF_OPTION], value]),
    ),
  );

const money = (subunits: number | null, currency: 'INR' | 'USD', none: string) =>
  subunits === null ? none : formatSubunits(subunits, currency);

/** An edition as --json prints it: the catalogue's view, its place, update period and whether trials run as it. */
function editionForCommandLine(edition: EditionRow, tool: ToolRow, trialEditionId: string | null) {
  return {
    ...toEditionView(edition, tool),
    position: edition.position,
    updatesMonths: edition.updatesMonths,
    renewalPriceInr: edition.renewalPriceInrPaise === null ? null : edition.renewalPriceInrPaise / 100,
    renewalPriceUsd: edition.renewalPriceUsdCents === null ? null : edition.renewalPriceUsdCents / 100,
    trial: edition.id === trialEditionId,
  };
}

const updatesText = (edition: EditionRow) =>
  edition.updatesMonths === null
    ? periodText(null)
    : `${periodText(edition.updatesMonths)}, renewal ${money(edition.renewalPriceInrPaise, 'INR', '')} / ${money(edition.renewalPriceUsdCents, 'USD', 'INR/75')}`;

function editionOutput(edition: EditionRow, tool: ToolRow, headline: string): CommandOutput {
  return {
    data: editionForCommandLine(edition, tool, tool.trialEditionId),
    text: `${headline}\n\n${details([
      ['ID', edition.id],
      ['Name', edition.name],
      ['Price INR', formatSubunits(edition.priceInrPaise, 'INR')],
      ['Price USD', money(edition.priceUsdCents, 'USD', 'the INR price / 75')],
      ['Entitlements', edition.entitlements.join(', ') || 'none'],
      ['Device limit', edition.deviceLimit ?? `${tool.activationLimit} (the tool’s)`],
      ['Updates', updatesText(edition)],
      ['Trial runs as it', edition.id === tool.trialEditionId ? 'yes' : 'no'],
    ])}`,
  };
}

const list = defineCommand({
  path: ['tools', 'editions', 'list'],
  summary: 'A tool’s editions, lowest first: prices, entitlements, device limit, update period',
  args: [TOOL_ARG],
  example: 'tools editions list "PDF Toolkit" --json',
  async run(env, input) {
    const ctx = await env.open();
    const tool = await findToolByIdOrName(ctx.db, argument(input, 0));
    const editions = (await editionsOf(ctx.db, [tool.id])).get(tool.id) ?? [];
    // Without a choice, a trial runs as the top edition (catalogue/editions.ts trialEditionOf).
    const trialEditionId = tool.trialEditionId ?? editions.at(-1)?.id ?? null;
    return {
      data: editions.map((edition) => editionForCommandLine(edition, tool, trialEditionId)),
      text: table(
        ['ID', 'NAME', 'INR', 'USD', 'ENTITLEMENTS', 'DEVICES', 'UPDATES', 'TRIAL'],
        editions.map((edition) => [
          shortId(edition.id),
          edition.name,
          formatSubunits(edition.priceInrPaise, 'INR'),
          money(edition.priceUsdCents, 'USD', 'INR/75'),
          edition.entitlements.join(',') || 'none',
          edition.deviceLimit ?? tool.activationLimit,
          updatesText(edition),
          edition.id === trialEditionId ? 'yes' : '',
        ]),
        `${tool.name} has no editions: it sells as one product. Add one with "tools editions add".`,
      ),
    };
  },
});

const add = defineCommand({
  path: ['tools', 'editions', 'add'],
  summary: 'Add an edition above the tool’s existing ones (Standard first, then Pro)',
  args: [TOOL_ARG],
  options: EDITION_OPTIONS,
  example:
    'tools editions add "PDF Toolkit" --name Pro --price-inr 2999 --price-usd 39 --entitlements ocr,batch',
  details:
    'Required: --name, --price-inr. A tool with editions is bought as one of them; a license carries its\n' +
    'edition’s entitlements for the tool to check.',
  async run(env, input) {
    const edition = parseCommandInput(
      typedEdition.pipe(newEditionSchema),
      { options: input.options },
      OPTION_OF_FIELD,
    );
    const ctx = await env.open();
    const added = await addEdition(ctx, argument(input, 0), edition, env.actor);
    return editionOutput(
      added.edition,
      added.tool,
      `Added the edition ${added.edition.name} to ${added.tool.name} (${shortId(added.edition.id)}).`,
    );
  },
});

const edit = defineCommand({
  path: ['tools', 'editions', 'edit'],
  summary: 'Change an edition’s name, prices, entitlements, device limit or update period',
  args: [TOOL_ARG, { name: 'edition', description: 'the edition: its name, or its id or the start of it' }],
  options: EDITION_OPTIONS,
  example:
    'tools editions edit "PDF Toolkit" Pro --updates-for 12m --renewal-price-inr 599 --renewal-price-usd 9',
  details:
    'Only the options given change. Orders already created keep their price, and a changed update period\n' +
    'applies to new purchases only. --updates-for lifetime goes back to every update for life.',
  async run(env, input) {
    const changes = parseCommandInput(
      typedEdition.pipe(editionChangesSchema),
      { options: input.options },
      OPTION_OF_FIELD,
    );
    const ctx = await env.open();
    const { tool, after } = await editEdition(
      ctx,
      argument(input, 0),
      argument(input, 1),
      changes,
      env.actor,
    );
    const trialEditionId = changes.trial ? after.id : tool.trialEditionId;
    return editionOutput(
      after,
      { ...tool, trialEditionId },
      `Updated the edition ${after.name} of ${tool.name} (${shortId(after.id)}).`,
    );
  },
});

export const editionCommands = [list, add, edit];
