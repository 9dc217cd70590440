import { createReadStream } from 'node:fs';
import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { z } from 'zod';
import {
  artifactFieldsSchema,
  createReleaseSchema,
  type RolloutChange,
  rolloutChangeSchema,
  rolloutStartSchema,
} from '../../shared/release-schemas';
import {
  type AdminRelease,
  ARTIFACT_ARCHES,
  ARTIFACT_KINDS,
  ARTIFACT_PLATFORMS,
  RELEASE_FILE_MAX_BYTES,
  RELEASE_FILE_TOO_LARGE,
  type ReleaseRollout,
} from '../../shared/releases';
import type { AppContext } from '../kernel/context';
import { DomainError } from '../kernel/domain-error';
import { findToolByIdOrName } from '../operator/tool-lookup';
import { toolAdoption } from '../releases/adoption';
import {
  addArtifact,
  createRelease,
  findReleaseByVersion,
  publishRelease,
  toAdminRelease,
  yankRelease,
} from '../releases/operator';
import { changeRollout } from '../releases/rollout';
import { findRelease, listReleases } from '../releases/store';
import { details, formatBytes, formatTime, table } from './format';
import {
  type AdminEnv,
  argument,
  CommandError,
  type CommandOutput,
  defineCommand,
  parseCommandInput,
  requireOption,
} from './framework';
import { oneOfWords } from './lookup';
import { userFile } from './tools';

const TOOL_ARG = { name: 'tool', description: 'the tool: its id, the start of it, or its exact name' };
const VERSION_ARG = { name: 'version', description: 'the release’s version, e.g. 1.1.0' };
/** A published release's commands take its id (as the dashboard, the audit log and the rollout email give it) too. */
const RELEASE_ARGS = [
  {
    name: 'release',
    description: 'the release’s id, or its tool (id, start of it, or exact name) followed by VERSION',
  },
  { ...VERSION_ARG, optional: true },
];

/** The release the arguments name: `ID`, or `TOOL VERSION`. */
async function namedRelease(ctx: AppContext, input: { args: Array<string | undefined> }) {
  const [first, version] = input.args;
  if (version !== undefined) return findReleaseByVersion(ctx.db, argument(input, 0), version);
  const release = await findRelease(ctx.db, argument(input, 0).trim());
  if (!release) {
    throw new DomainError(
      'not_found',
      `No release has the id "${first}"; give its tool and version (releases publish TOOL VERSION), or see "releases list TOOL".`,
    );
  }
  return release;
}

/** "10 % of machines, rolling", "halted at 50 %", "complete". */
function rolloutText(rollout: ReleaseRollout): string {
  if (rollout.state === 'complete') return 'complete (every machine)';
  if (rollout.state === 'halted') return `halted at ${rollout.percent} % (no machine is offered it)`;
  return `${rollout.percent} % of machines, rolling`;
}

const DAY_SECONDS = 86_400;
/** "1d", "12h", "90m": an interval as the operator types it. */
function durationText(seconds: number): string {
  for (const [unit, size] of [
    ['d', DAY_SECONDS],
    ['h', 3600],
    ['m', 60],
  ] as const) {
    if (seconds % size === 0) return `${seconds / size}${unit}`;
  }
  return `${seconds}s`;
}

function releaseDetails(release: AdminRelease): string {
  const files = release.artifacts.map((file) =>
    [
      `  ${file.kind} ${file.platform} ${file.arch}${file.velopackType ? ` (${file.velopackType})` : ''}: ${file.fileName}, ${formatBytes(file.size)}`,
      ...(file.installerArguments ? [`    installer arguments ${file.installerArguments}`] : []),
      `    sha256 ${file.sha256}`,
      `    signature ${file.signature} (key ${file.kid})`,
    ].join('\n'),
  );
  return [
    details([
      ['ID', release.id],
      ['Version', release.version],
      ['Channel', release.channel],
      ['State', release.state],
      ['Critical', release.critical ? 'yes' : 'no'],
      ['Build', String(release.buildNumber)],
      ['Minimum macOS', release.minimumMacosVersion],
      ['Minimum Windows', release.minimumWindowsVersion],
      ['Created', formatTime(new Date(release.createdAt))],
      ['Published', release.publishedAt ? formatTime(new Date(release.publishedAt)) : null],
      ['Yanked', release.yankedAt ? formatTime(new Date(release.yankedAt)) : null],
      ['Rollout', release.state === 'published' ? rolloutText(release.rollout) : null],
      [
        'Sparkle phased interval',
        release.rollout.phasedIntervalSeconds ? durationText(release.rollout.phasedIntervalSeconds) : null,
      ],
      [
        'Halt if stuck',
        release.rollout.haltIfStuckPercent ? `above ${release.rollout.haltIfStuckPercent} %` : null,
      ],
    ]),
    '',
    files.length > 0 ? `Files:\n${files.join('\n')}` : 'Files: none yet.',
  ].join('\n');
}

const releaseOutput = (release: AdminRelease, headline: string): CommandOutput => ({
  data: release,
  text: `${headline}\n\n${releaseDetails(release)}`,
});

/** `releases add`'s options, then the release as the dashboard's form gives it, by the same schema. */
const addInput = z
  .object({
    version: z.string(),
    channel: z.string().optional(),
    'notes-file': z.string().default(''),
    build: z.string().nullable().default(null),
    'min-macos': z.string().nullable().default(null),
    'min-windows': z.string().nullable().default(null),
    critical: z.boolean().default(false),
  })
  .transform(
    (typed): z.input<typeof createReleaseSchema> => ({
      version: typed.version,
      // The schema says what is wrong with a channel it does not know.
      channel: typed.channel?.trim().toLowerCase() as z.input<typeof createReleaseSchema>['channel'],
      notesMarkdown: typed['notes-file'],
      buildNumber: typed.build,
      minimumMacosVersion: typed['min-macos'],
      minimumWindowsVersion: typed['min-windows'],
      critical: typed.critical,
    }),
  )
  .pipe(createReleaseSchema);

/** The option each of the release's fields comes from, for a refusal's name. */
const OPTION_OF_FIELD = {
  notesMarkdown: 'notes-file',
  buildNumber: 'build',
  minimumMacosVersion: 'min-macos',
  minimumWindowsVersion: 'min-windows',
};

/** The release's fields checked by the dashboard's own schema, so both take and refuse the same values. */
async function newRelease(
  env: AdminEnv,
  options: { version?: string; 'notes-file'?: string } & Record<string, string | boolean | undefined>,
) {
  const notesFile = options['notes-file'];
  const notes = notesFile === undefined ? undefined : await readFile(await userFile(env, notesFile), 'utf8');
  return parseCommandInput(
    addInput,
    {
      options: { ...options, version: requireOption(options.version, 'version', 'releases add') },
      files: notes === undefined ? {} : { 'notes-file': notes },
    },
    OPTION_OF_FIELD,
  );
}

/** `releases upload`'s options: the file's platform, architecture and kind, as the dashboard's form gives them. */
const uploadInput = z
  .object({
    platform: oneOfWords(ARTIFACT_PLATFORMS),
    arch: oneOfWords(ARTIFACT_ARCHES),
    kind: oneOfWords(ARTIFACT_KINDS),
    'installer-args': z.string().optional(),
  })
  .transform(
    ({ 'installer-args': installerArguments, ...fields }): z.input<typeof artifactFieldsSchema> =>
      installerArguments === undefined ? fields : { ...fields, installerArguments },
  )
  .pipe(artifactFieldsSchema);

const list = defineCommand({
  path: ['releases', 'list'],
  summary: 'List a tool’s releases, newest version first, with their files',
  args: [TOOL_ARG],
  example: 'releases list "PDF Toolkit"',
  async run(env, input) {
    const ctx = await env.open();
    const tool = await findToolByIdOrName(ctx.db, argument(input, 0));
    const rows = (await listReleases(ctx.db, tool.id)).map(toAdminRelease);
    return {
      data: rows,
      text: table(
        ['VERSION', 'BUILD', 'CHANNEL', 'STATE', 'PUBLISHED', 'FILES'],
        rows.map((release) => [
          release.version,
          String(release.buildNumber),
          release.channel,
          release.state,
          release.publishedAt ? formatTime(new Date(release.publishedAt)) : '',
          release.artifacts.map((file) => `${file.kind}/${file.platform}/${file.arch}`).join(', '),
        ]),
        `${tool.name} has no releases yet. Add one with "releases add".`,
      ),
    };
  },
});

const add = defineCommand({
  path: ['releases', 'add'],
  summary: 'Add a draft release to a tool',
  args: [TOOL_ARG],
  options: {
    version: { type: 'string', value: '<semver>', description: 'The version, e.g. 1.1.0 or 2.0.0-beta.1' },
    channel: { type: 'string', value: '<stable|beta>', description: 'Who gets it (default stable)' },
    'notes-file': { type: 'string', value: '<path>', description: 'Release notes in Markdown from a file' },
    critical: { type: 'boolean', description: 'Mark it as a critical update' },
    build: {
      type: 'string',
      value: '<N>',
      description: 'Build number, above every earlier one (Sparkle compares it); default the next',
    },
    'min-macos': {
      type: 'string',
      value: '<x.y[.z]>',
      description: 'Minimum macOS for its Mac files, e.g. 12.0',
    },
    'min-windows': {
      type: 'string',
      value: '<x.y.build>',
      description: 'Minimum Windows for its Windows files, e.g. 10.0.17763',
    },
  },
  example: 'releases add "PDF Toolkit" --version 1.1.0 --min-macos 12.0 --notes-file notes.md',
  details: 'The release is a draft: upload its files with "releases upload", then "releases publish".',
  async run(env, input) {
    const values = await newRelease(env, input.options);
    const ctx = await env.open();
    const release = toAdminRelease(await createRelease(ctx, argument(input, 0), values, env.actor));
    return releaseOutput(
      release,
      `Added draft release ${release.version} (${release.channel}, build ${release.buildNumber}).`,
    );
  },
});

const upload = defineCommand({
  path: ['releases', 'upload'],
  summary: 'Upload a file to a draft release: hashed and signed as it is stored',
  args: [
    TOOL_ARG,
    VERSION_ARG,
    { name: 'file', description: 'the file (its name is the name updaters get)' },
  ],
  options: {
    platform: { type: 'string', value: '<windows|macos>', description: 'Where the file runs' },
    arch: { type: 'string', value: '<x64|arm64|x86|universal>', description: 'Its architecture' },
    kind: {
      type: 'string',
      value: '<installer|sparkle|velopack>',
      description: 'installer (My Tools), sparkle (appcast archive) or velopack (.nupkg)',
    },
    'installer-args': {
      type: 'string',
      value: '<args>',
      description: 'A Windows sparkle installer’s arguments for WinSparkle, e.g. "/SILENT"',
    },
  },
  example:
    'releases upload "PDF Toolkit" 1.1.0 ./PdfToolkit-1.1.0-full.nupkg --platform windows --arch x64 --kind velopack',
  async run(env, input) {
    const command = 'releases upload';
    const { options } = input;
    const fields = parseCommandInput(
      uploadInput,
      {
        options: {
          ...options,
          platform: requireOption(options.platform, 'platform', command),
          arch: requireOption(options.arch, 'arch', command),
          kind: requireOption(options.kind, 'kind', command),
        },
      },
      { installerArguments: 'installer-args' },
    );
    const typedFile = argument(input, 2);
    const file = await userFile(env, typedFile, {
      bytes: RELEASE_FILE_MAX_BYTES,
      problem: RELEASE_FILE_TOO_LARGE,
    });
    const ctx = await env.open();
    const release = await findReleaseByVersion(ctx.db, argument(input, 0), argument(input, 1));
    const fileName = path.basename(typedFile);
    const { release: after, artifact } = await addArtifact(
      ctx,
      release.id,
      { ...fields, fileName, stream: createReadStream(file) },
      env.actor,
    );
    return releaseOutput(
      toAdminRelease(after),
      `Uploaded ${fileName} (${formatBytes(artifact.size)}, sha256 ${artifact.sha256}) to ${after.version}.`,
    );
  },
});

/** `releases publish`'s options, then the rollout's start as the dashboard's form gives it, by the same schema. */
const publishInput = z
  .object({
    rollout: z.string().optional(),
    'phased-interval': z.string().nullable().default(null),
    'halt-if-stuck': z.string().nullable().default(null),
  })
  .transform(
    (typed): z.input<typeof rolloutStartSchema> => ({
      ...(typed.rollout === undefined ? {} : { rolloutPercent: typed.rollout }),
      phasedInterval: typed['phased-interval'],
      haltIfStuckPercent: typed['halt-if-stuck'],
    }),
  )
  .pipe(rolloutStartSchema);

/** The option each of the rollout's fields comes from, for a refusal's name. */
const PUBLISH_OPTION_OF_FIELD = {
  rolloutPercent: 'rollout',
  phasedInterval: 'phased-interval',
  haltIfStuckPercent: 'halt-if-stuck',
};

const publish = defineCommand({
  path: ['releases', 'publish'],
  summary: 'Publish a draft release: its files go into the feeds, the update check and My Tools',
  args: RELEASE_ARGS,
  options: {
    rollout: {
      type: 'string',
      value: '<percent>',
      description:
        'Offer it to this share of machines first (1–100, default 100); widen it with "releases rollout"',
    },
    'phased-interval': {
      type: 'string',
      value: '<1d|12h|…>',
      description: 'Sparkle’s own schedule on top: each of its 7 groups of Macs one interval after the last',
    },
    'halt-if-stuck': {
      type: 'string',
      value: '<percent>',
      description:
        'Halt it when more than this share of machines that downloaded it stay on the old version a day',
    },
  },
  example: 'releases publish "PDF Toolkit" 1.1.0 --rollout 10 --phased-interval 1d --halt-if-stuck 20',
  async run(env, input) {
    const rollout = parseCommandInput(publishInput, { options: input.options }, PUBLISH_OPTION_OF_FIELD);
    const ctx = await env.open();
    const release = await namedRelease(ctx, input);
    const after = toAdminRelease(await publishRelease(ctx, release.id, env.actor, rollout));
    const staged = after.rollout.state === 'complete' ? '' : ` Rollout: ${rolloutText(after.rollout)}.`;
    return releaseOutput(after, `Published release ${after.version}.${staged}`);
  },
});

const yank = defineCommand({
  path: ['releases', 'yank'],
  summary: 'Yank a published release: out of every feed, the update check and My Tools at once',
  args: RELEASE_ARGS,
  example: 'releases yank "PDF Toolkit" 1.1.0',
  async run(env, input) {
    const ctx = await env.open();
    const release = await namedRelease(ctx, input);
    const after = toAdminRelease(await yankRelease(ctx, release.id, env.actor));
    return releaseOutput(after, `Yanked release ${after.version}.`);
  },
});

/** The one change the options ask for: exactly one of --percent, --halt, --resume, --complete. */
function rolloutChangeOf(options: {
  percent?: string;
  halt?: boolean;
  resume?: boolean;
  complete?: boolean;
}): RolloutChange {
  const asked = [
    options.percent === undefined ? null : { action: 'percent', percent: options.percent },
    options.halt ? { action: 'halt' } : null,
    options.resume ? { action: 'resume' } : null,
    options.complete ? { action: 'complete' } : null,
  ].filter((change) => change !== null);
  if (asked.length !== 1) {
    throw new CommandError('"releases rollout" takes one of --percent N, --halt, --resume or --complete.');
  }
  return parseCommandInput(rolloutChangeSchema, { options: asked[0] });
}

const rollout = defineCommand({
  path: ['releases', 'rollout'],
  summary: 'Widen, halt, resume or complete a published release’s staged rollout',
  args: RELEASE_ARGS,
  options: {
    percent: {
      type: 'string',
      value: '<N>',
      description: 'Offer it to N % of machines (only widens; 100 completes it)',
    },
    halt: { type: 'boolean', description: 'No further machine is offered it; machines that have it keep it' },
    resume: { type: 'boolean', description: 'Offer it again at the percentage it had' },
    complete: { type: 'boolean', description: 'Offer it to every machine' },
  },
  example: 'releases rollout "PDF Toolkit" 1.1.0 --percent 50',
  details:
    'A machine’s place in a rollout is fixed (a hash of its activation and the release), so widening keeps every machine that was offered it. Each change is audited and sent as the webhook release.rollout_changed.',
  async run(env, input) {
    const change = rolloutChangeOf(input.options);
    const ctx = await env.open();
    const release = await namedRelease(ctx, input);
    const after = toAdminRelease(await changeRollout(ctx, release.id, change, env.actor));
    return releaseOutput(after, `The rollout of ${after.version}: ${rolloutText(after.rollout)}.`);
  },
});

const percentText = (share: number) => `${(share * 100).toFixed(1)} %`;

const adoption = defineCommand({
  path: ['releases', 'adoption'],
  summary: 'Which versions a tool’s machines run, and how far each release has got',
  args: [TOOL_ARG],
  example: 'releases adoption "PDF Toolkit" --json',
  details:
    'MACHINES are the machines seen within 30 days that run the version (SHARE of all of them); OFFERED, DOWNLOADED and RUNNING count the machines that were ever offered the release, downloaded one of its files, and reported running it. --json adds these per day over the last 30 days.',
  async run(env, input) {
    const ctx = await env.open();
    const tool = await findToolByIdOrName(ctx.db, argument(input, 0));
    const figures = await toolAdoption(ctx.db, tool, ctx.clock.now());
    const headline = `${tool.name}: ${figures.activeMachines} machine${figures.activeMachines === 1 ? '' : 's'} seen within 30 days, ${figures.unknownVersion} without a reported version.`;
    return {
      data: figures,
      text: `${headline}\n\n${table(
        ['VERSION', 'STATE', 'ROLLOUT', 'MACHINES', 'SHARE', 'OFFERED', 'DOWNLOADED', 'RUNNING'],
        figures.versions.map((version) => [
          version.version,
          version.releaseState ?? 'not released',
          version.rollout && version.releaseState === 'published'
            ? version.rollout.state === 'complete'
              ? 'complete'
              : `${version.rollout.state} ${version.rollout.percent} %`
            : '',
          String(version.machines),
          percentText(version.share),
          String(version.offered),
          String(version.downloaded),
          String(version.running),
        ]),
        `${tool.name} has no published release and no machine has reported a version yet.`,
      )}`,
    };
  },
});

export const releaseCommands = [list, add, upload, publish, yank, rollout, adoption];
