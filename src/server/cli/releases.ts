import { createReadStream } from 'node:fs';
import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { z } from 'zod';
import { artifactFieldsSchema, createReleaseSchema } from '../../shared/release-schemas';
import {
  type AdminRelease,
  ARTIFACT_ARCHES,
  ARTIFACT_KINDS,
  ARTIFACT_PLATFORMS,
  RELEASE_FILE_MAX_BYTES,
  RELEASE_FILE_TOO_LARGE,
} from '../../shared/releases';
import { findToolByIdOrName } from '../operator/tool-lookup';
import {
  addArtifact,
  createRelease,
  findReleaseByVersion,
  publishRelease,
  toAdminRelease,
  yankRelease,
} from '../releases/operator';
import { listReleases } from '../releases/store';
import { details, formatBytes, formatTime, table } from './format';
import {
  type AdminEnv,
  argument,
  type CommandOutput,
  defineCommand,
  parseCommandInput,
  requireOption,
} from './framework';
import { oneOfWords } from './lookup';
import { userFile } from './tools';

const TOOL_ARG = { name: 'tool', description: 'the tool: its id, the start of it, or its exact name' };
const VERSION_ARG = { name: 'version', description: 'the release’s version, e.g. 1.1.0' };

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

function stateCommand(name: 'publish' | 'yank') {
  const operation = name === 'publish' ? publishRelease : yankRelease;
  return defineCommand({
    path: ['releases', name],
    summary:
      name === 'publish'
        ? 'Publish a draft release: its files go into the feeds, the update check and My Tools'
        : 'Yank a published release: out of every feed, the update check and My Tools at once',
    args: [TOOL_ARG, VERSION_ARG],
    example: `releases ${name} "PDF Toolkit" 1.1.0`,
    async run(env, input) {
      const ctx = await env.open();
      const release = await findReleaseByVersion(ctx.db, argument(input, 0), argument(input, 1));
      const after = toAdminRelease(await operation(ctx, release.id, env.actor));
      return releaseOutput(after, `${name === 'publish' ? 'Published' : 'Yanked'} release ${after.version}.`);
    },
  });
}

export const releaseCommands = [list, add, upload, stateCommand('publish'), stateCommand('yank')];
