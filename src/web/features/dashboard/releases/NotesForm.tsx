import type { AdminRelease } from '../../../../shared/releases';
import { TextAreaField, useForm } from '../../../components/form';
import { dashboardApi, problem } from '../api';
import { CriticalAndSubmit, type Device, MinimumOsFields } from './NewReleaseForm';

const FIELDS = ['notesMarkdown', 'minimumMacosVersion', 'minimumWindowsVersion'] as const;

/**
 * The notes' own headings sit under the preview's h3 on this page (under the Releases h2): the notes' top level
 * (whatever it is, # or ##) becomes h4 and the rest follow it, at most h6, so the page's outline skips no level.
 */
export const headingsUnder = (html: string) => {
  const levels = [...html.matchAll(/<h([1-6])\b/gi)].map((match) => Number(match[1]));
  const shift = levels.length === 0 ? 0 : 4 - Math.min(...levels);
  return html.replace(
    /<(\/?)h([1-6])\b/gi,
    (_, slash: string, level: string) => `<${slash}h${Math.min(6, Number(level) + shift)}`,
  );
};

/**
 * The release's notes (Markdown) with a preview of exactly what buyers and updaters get: the server's rendered
 * and sanitised HTML, refreshed on each save. Minimum OS and the critical flag may change after publishing too.
 */
export function NotesForm({
  release,
  device,
  onSaved,
}: {
  device: Device;
  release: AdminRelease;
  onSaved: (release: AdminRelease) => void;
}) {
  const idOf = (field: string) => `release-${release.id}-${field}`;
  const form = useForm({
    initial: {
      notesMarkdown: release.notesMarkdown,
      minimumMacosVersion: release.minimumMacosVersion ?? '',
      minimumWindowsVersion: release.minimumWindowsVersion ?? '',
      critical: release.critical,
    },
    fields: FIELDS,
    idOf,
  });
  const submit = form.submit({
    send: async (current) => onSaved(await dashboardApi.editRelease(release.id, current)),
    explain: (failure) => problem(failure),
  });
  return (
    <form onSubmit={submit} noValidate className="grid gap-3 lg:grid-cols-2">
      <TextAreaField {...form.field('notesMarkdown')} label="Release notes (Markdown)" rows={8} />
      <div>
        <h3 className="mb-1.5 text-sm font-medium text-slate-800">
          Preview (as buyers see it, after saving)
        </h3>
        <div
          className="min-h-24 space-y-2 rounded-lg border border-slate-200 bg-slate-50 p-3 text-sm break-words [&_a]:text-brand-700 [&_a]:underline [&_code]:font-mono [&_h4]:text-base [&_h4]:font-semibold [&_h5]:font-semibold [&_h6]:font-semibold [&_ol]:list-decimal [&_ol]:pl-5 [&_pre]:overflow-x-auto [&_ul]:list-disc [&_ul]:pl-5"
          // The server's HTML: rendered by marked and sanitised (releases/notes.ts) before it is ever sent.
          // biome-ignore lint/security/noDangerouslySetInnerHtml: sanitised on the server
          dangerouslySetInnerHTML={{ __html: headingsUnder(release.notesHtml) || '<p>No notes yet.</p>' }}
        />
      </div>
      <div className="grid gap-3 sm:grid-cols-2">
        <MinimumOsFields form={form} device={device} />
      </div>
      <CriticalAndSubmit form={form} className="lg:col-span-2">
        Save notes
      </CriticalAndSubmit>
    </form>
  );
}
