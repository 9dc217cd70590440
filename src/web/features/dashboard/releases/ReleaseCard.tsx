import type { AdminRelease } from '../../../../shared/releases';
import { formatDateTime, StatusBadge } from '../ui';
import { ArtifactList } from './ArtifactList';
import { ArtifactUploadForm } from './ArtifactUploadForm';
import type { Device } from './NewReleaseForm';
import { NotesForm } from './NotesForm';
import { ReleaseActions } from './ReleaseActions';

const when = (release: AdminRelease) =>
  release.yankedAt
    ? `yanked ${formatDateTime(release.yankedAt)}`
    : release.publishedAt
      ? `published ${formatDateTime(release.publishedAt)}`
      : `created ${formatDateTime(release.createdAt)}`;

/** One release, folded to its summary line until opened: notes, files, upload (drafts) and publish or yank. */
export function ReleaseCard({
  release,
  device,
  open,
  onChange,
}: {
  release: AdminRelease;
  /** The tool's platform, whose minimum OS the release asks. */
  device: Device;
  open: boolean;
  onChange: (release: AdminRelease) => void;
}) {
  return (
    <details
      open={open}
      className="group rounded-lg border border-slate-200 bg-white"
      data-testid={`release-${release.version}`}
    >
      <summary className="flex cursor-pointer flex-wrap items-center gap-2 px-4 py-3 text-sm">
        <span className="font-semibold text-slate-900">{release.version}</span>
        <span className="text-slate-600">build {release.buildNumber}</span>
        <StatusBadge status={release.state} />
        <span className="text-slate-700">{release.channel}</span>
        {release.critical && <span className="font-semibold text-red-800">critical</span>}
        <span className="text-slate-600">{when(release)}</span>
      </summary>
      <div className="space-y-5 border-t border-slate-200 p-4">
        <NotesForm key={`${release.id}-notes`} release={release} device={device} onSaved={onChange} />
        <section aria-label={`Files of ${release.version}`} className="space-y-3">
          <h3 className="text-sm font-semibold text-slate-900">Files</h3>
          <ArtifactList release={release} onChange={onChange} />
          {release.state === 'draft' && <ArtifactUploadForm release={release} onUploaded={onChange} />}
        </section>
        <ReleaseActions release={release} onChange={onChange} />
      </div>
    </details>
  );
}
