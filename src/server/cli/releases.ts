import { createReadStream } from 'node:fs';
import { readFile } from 'node:fs/promises';
import path from 'node:path';
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
  CommandError,
  type CommandOutput,
  defineCommand,
  requireOption,
} from './framework';
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

/** One of the allowed words for an option, or a message that lists them. */
function oneOf<T extends string>(typed: string, allowed: readonly T[], option: string): T {
  const text = typed.trim().toLowerCase();
  const found = allowed.find((word) => word === text);
  if (!found) throw new CommandError(`--${option} must be ${allowed.join(', ')}; got "${typed}".`);
  return found;
}

/** The release's fields checked by the dashboard's own schema, so both take and refuse the same values. */
async function newRelease(
  env: AdminEnv,
  options: {
    version?: string;
    channel?: string;
    'notes-file'?: string;
    critical?: boolean;
    build?: string;
    'min-macos'?: string;
    'min-windows'?: string;
  },
) {
  const notesMarkdown =
    options['notes-file'] === undefined
      ? ''
      : await readFile(await userFile(env, options['notes-file']), 'utf8');
  const parsed = createReleaseSchema.safeParse({
    version: requireOption(options.version, 'version', 'releases add'),
    channel: options.channel === undefined ? 'stable' : options.channel.trim().toLowerCase(),
    notesMarkdown,
    buildNumber: options.build ?? null,
    minimumMacosVersion: options['min-macos'] ?? null,
    minimumWindowsVersion: options['min-windows'] ?? null,
    critical: options.critical === true,
  });
  if (!parsed.success) {
    const issue = parsed.error.issues[0];
    const option =
      {
        notesMarkdown: 'notes-file',
        buildNumber: 'build',
        minimumMacosVersion: 'min-macos',
        minimumWindowsVersion: 'min-windows',
      }[String(issue?.path[0])] ?? issue?.path[0];
    throw new CommandError(`--${String(option)}: ${issue?.message ?? 'invalid'}`);
  }
  return parsed.data;
}

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
    const platform = oneOf(
      requireOption(options.platform, 'platform', command),
      ARTIFACT_PLATFORMS,
      'platform',
    );
    const arch = oneOf(requireOption(options.arch, 'arch', command), ARTIFACT_ARCHES, 'arch');
    const kind = oneOf(requireOption(options.kind, 'kind', command), ARTIFACT_KINDS, 'kind');
    const fields = artifactFieldsSchema.safeParse({
      platform,
      arch,
      kind,
      installerArguments: options['installer-args'],
    });
    if (!fields.success) {
      throw new CommandError(`--installer-args: ${fields.error.issues[0]?.message ?? 'invalid'}`);
    }
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
      { ...fields.data, fileName, stream: createReadStream(file) },
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
