import { Download } from 'lucide';
import type { PurchasedTool, ToolInstaller, ToolVersion } from '../../../shared/shop';
import { Icon } from '../../components/Icon';
import { formatDate } from '../../lib/dates';

const PLATFORM = { windows: 'Windows', macos: 'macOS' } as const;
const ARCH = { x64: '64-bit', arm64: 'ARM', x86: '32-bit', universal: '' } as const;

/** "Windows 64-bit", "macOS": which machine an installer is for. */
export function installerLabel(installer: Pick<ToolInstaller, 'platform' | 'arch'>): string {
  return [PLATFORM[installer.platform], ARCH[installer.arch]].filter(Boolean).join(' ');
}

/** "18.4 MB" */
export function sizeLabel(bytes: number): string {
  if (bytes < 1024 * 1024) return `${Math.max(1, Math.round(bytes / 1024))} KB`;
  return `${(bytes / (1024 * 1024)).toFixed(1)} MB`;
}

/**
 * The notes' headings moved below the card's own (h3), so the page's outline stays in order: an h1 or h2 in the
 * notes becomes an h4, an h3 an h5. The server's sanitised HTML puts no attribute on a heading, so the tags are exactly these.
 */
export const nestedHeadings = (html: string) =>
  html.replace(
    /<(\/?)h([1-6])>/g,
    (_tag, close: string, level: string) => `<${close}h${Math.min(6, Math.max(4, Number(level) + 2))}>`,
  );

/** "Requires macOS 12.0 or later": the oldest systems the release runs on, where it sets them; null where none. */
export function minimumSystemText(
  version: Pick<
    NonNullable<PurchasedTool['currentVersion']>,
    'minimumMacosVersion' | 'minimumWindowsVersion'
  >,
): string | null {
  const systems = [
    version.minimumMacosVersion && `macOS ${version.minimumMacosVersion}`,
    version.minimumWindowsVersion && `Windows ${version.minimumWindowsVersion}`,
  ].filter(Boolean);
  return systems.length ? `Requires ${systems.join(' or ')} or later` : null;
}

const dateOf = (version: ToolVersion) => (version.publishedAt ? formatDate(version.publishedAt) : null);

/** The server hands out a fresh 3-hour link for the signed-in owner and sends the browser to it. */
const installerHref = (installer: ToolInstaller) => `/api/my-tools/installers/${installer.artifactId}`;

function InstallerLinks({ version, toolName }: { version: ToolVersion; toolName: string }) {
  return (
    <ul className="mt-3 flex flex-wrap gap-2">
      {version.installers.map((installer) => (
        <li key={installer.artifactId}>
          <a
            href={installerHref(installer)}
            aria-label={`Download ${toolName} ${version.version} for ${installerLabel(installer)}, ${sizeLabel(installer.size)}`}
            className="inline-flex min-h-11 items-center gap-2 rounded-lg border border-brand-800 bg-white px-3 py-2 text-sm font-semibold text-brand-800 transition-colors hover:bg-brand-50"
          >
            <Icon node={Download} className="size-4" />
            {installerLabel(installer)}
            <span className="font-normal text-slate-600">{sizeLabel(installer.size)}</span>
          </a>
        </li>
      ))}
    </ul>
  );
}

/** A purchased tool's current version on My Tools: its notes, an installer per platform, and earlier versions. */
export function VersionPanel({ tool, title }: { tool: PurchasedTool; title: string }) {
  const current = tool.currentVersion;
  if (!current) return null;
  const released = dateOf(current);
  const requires = minimumSystemText(current);
  return (
    // Named with the tool: every card on My Tools has one (issue 63).
    <section
      aria-label={`Current version of ${title}`}
      className="mb-6 rounded-xl border border-slate-200 p-4"
    >
      <p className="text-sm font-semibold text-brand-900">
        Version {current.version}
        {released && <span className="font-normal text-slate-600"> · released {released}</span>}
      </p>
      {requires && <p className="mt-1 text-sm text-slate-700">{requires}</p>}
      {current.notesHtml && (
        <div
          className="mt-2 text-sm leading-relaxed text-slate-700 [&_a]:text-brand-800 [&_a]:underline [&_code]:font-mono [&_h4]:font-semibold [&_h4]:text-slate-900 [&_h5]:font-semibold [&_h6]:font-semibold [&_li]:ml-5 [&_ol]:list-decimal [&_p]:mt-1 [&_ul]:list-disc"
          // biome-ignore lint/security/noDangerouslySetInnerHtml: release notes are rendered and sanitised by the server (releases/notes.ts): no script, no event handler, no javascript: link.
          dangerouslySetInnerHTML={{ __html: nestedHeadings(current.notesHtml) }}
        />
      )}
      <InstallerLinks version={current} toolName={tool.name} />
      {tool.earlierVersions.length > 0 && (
        <details className="mt-4 text-sm">
          <summary className="min-h-11 cursor-pointer py-2.5 font-semibold text-brand-800">
            Earlier versions
          </summary>
          <ul className="mt-2 space-y-3">
            {tool.earlierVersions.map((version) => (
              <li key={version.version}>
                <p className="text-slate-700">
                  Version {version.version}
                  {dateOf(version) && <span className="text-slate-600"> · released {dateOf(version)}</span>}
                </p>
                <InstallerLinks version={version} toolName={tool.name} />
              </li>
            ))}
          </ul>
        </details>
      )}
    </section>
  );
}
