import { useState } from 'react';
import type { AdminArtifact, AdminRelease } from '../../../../shared/releases';
import { Button, FormError } from '../../../components/form';
import { dashboardApi, problem } from '../api';
import { formatFileSize } from '../ui';

/** Each file with what an updater checks it by: size, SHA-256 and the Ed25519 signature; a draft's may be removed. */
export function ArtifactList({
  release,
  onChange,
}: {
  release: AdminRelease;
  onChange: (release: AdminRelease) => void;
}) {
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState<string | null>(null);
  if (release.artifacts.length === 0) {
    return <p className="text-sm text-slate-600">No files yet: upload at least one before publishing.</p>;
  }
  const remove = async (artifact: AdminArtifact) => {
    setBusy(artifact.id);
    setError(null);
    try {
      onChange(await dashboardApi.removeArtifact(release.id, artifact.id));
    } catch (failure) {
      setError(problem(failure));
    } finally {
      setBusy(null);
    }
  };
  return (
    <div className="space-y-3">
      <ul className="space-y-3">
        {release.artifacts.map((artifact) => (
          <li key={artifact.id} className="rounded-lg border border-slate-200 p-3 text-sm">
            <p className="font-semibold text-slate-900 break-words">{artifact.fileName}</p>
            <dl className="mt-2 grid grid-cols-[max-content_1fr] gap-x-3 gap-y-1">
              <dt className="text-slate-600">Kind</dt>
              <dd>
                {artifact.kind}
                {artifact.velopackType ? ` (${artifact.velopackType.toLowerCase()})` : ''} ·{' '}
                {artifact.platform} · {artifact.arch}
              </dd>
              {artifact.installerArguments && (
                <>
                  <dt className="text-slate-600">Installer arguments</dt>
                  <dd className="break-all font-mono text-xs">{artifact.installerArguments}</dd>
                </>
              )}
              <dt className="text-slate-600">Size</dt>
              <dd>{formatFileSize(artifact.size)}</dd>
              <dt className="text-slate-600">SHA-256</dt>
              <dd className="break-all font-mono text-xs" data-testid="artifact-sha256">
                {artifact.sha256}
              </dd>
              <dt className="text-slate-600">Signature</dt>
              <dd className="break-all font-mono text-xs" data-testid="artifact-signature">
                {artifact.signature}
                <span className="block text-slate-600">key {artifact.kid}</span>
              </dd>
            </dl>
            {release.state === 'draft' && (
              <Button
                variant="secondary"
                className="mt-2"
                busy={busy === artifact.id}
                onClick={() => void remove(artifact)}
              >
                Remove {artifact.fileName}
              </Button>
            )}
          </li>
        ))}
      </ul>
      <FormError message={error} />
    </div>
  );
}
