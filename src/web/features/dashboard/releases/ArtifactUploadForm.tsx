import { type FormEvent, useState } from 'react';
import {
  type AdminRelease,
  ARTIFACT_ARCHES,
  ARTIFACT_KINDS,
  ARTIFACT_PLATFORMS,
  RELEASE_FILE_MAX_BYTES,
  RELEASE_FILE_TOO_LARGE,
} from '../../../../shared/releases';
import { asSentence } from '../../../../shared/tool-rules';
import { Button, Field, FormError, Select, TextField } from '../../../components/form';
import { announce } from '../../../lib/announce';
import { dashboardApi, problem } from '../api';

const KIND_LABELS: Record<(typeof ARTIFACT_KINDS)[number], string> = {
  installer: 'Installer (My Tools download)',
  sparkle: 'Sparkle / WinSparkle archive',
  velopack: 'Velopack package (.nupkg)',
};

/** One file for a draft: streamed with a progress bar, hashed and signed by the server as it is stored. */
export function ArtifactUploadForm({
  release,
  onUploaded,
}: {
  release: AdminRelease;
  onUploaded: (release: AdminRelease) => void;
}) {
  const idOf = (field: string) => `release-${release.id}-upload-${field}`;
  const [fields, setFields] = useState({ platform: 'windows', arch: 'x64', kind: 'installer' });
  /** WinSparkle runs a Windows sparkle installer with these (sparkle:installerArguments), e.g. /SILENT. */
  const [installerArguments, setInstallerArguments] = useState('');
  const takesArguments = fields.platform === 'windows' && fields.kind === 'sparkle';
  const [file, setFile] = useState<File | null>(null);
  const [progress, setProgress] = useState<number | null>(null);
  const [error, setError] = useState<string | null>(null);
  /** A new file input after each upload: a browser keeps showing the chosen file's name otherwise. */
  const [inputKey, setInputKey] = useState(0);
  const submit = async (event: FormEvent) => {
    event.preventDefault();
    if (progress !== null) return;
    if (!file) return setError('Choose the file to upload.');
    if (file.size > RELEASE_FILE_MAX_BYTES) return setError(asSentence(RELEASE_FILE_TOO_LARGE));
    setError(null);
    setProgress(0);
    try {
      const sent = takesArguments ? { ...fields, installerArguments } : fields;
      onUploaded(await dashboardApi.uploadArtifact(release.id, sent, file, setProgress));
      // Focus stays on Upload file, ready for the release's next file; the live region says what was stored.
      announce(`${file.name} uploaded to ${release.version}, hashed and signed.`);
      setFile(null);
      setInputKey((key) => key + 1);
    } catch (failure) {
      setError(problem(failure));
    } finally {
      setProgress(null);
    }
  };
  const select = (
    name: keyof typeof fields,
    label: string,
    options: readonly { value: string; label: string }[],
  ) => (
    <Field id={idOf(name)} label={label}>
      <Select
        id={idOf(name)}
        value={fields[name]}
        onValueChange={(value) => setFields((current) => ({ ...current, [name]: value }))}
        options={options}
      />
    </Field>
  );
  return (
    <form onSubmit={submit} noValidate className="grid gap-3 sm:grid-cols-3">
      {select(
        'platform',
        'Platform',
        ARTIFACT_PLATFORMS.map((value) => ({ value, label: value === 'macos' ? 'macOS' : 'Windows' })),
      )}
      {select(
        'arch',
        'Architecture',
        ARTIFACT_ARCHES.map((value) => ({ value, label: value })),
      )}
      {select(
        'kind',
        'Kind',
        ARTIFACT_KINDS.map((value) => ({ value, label: KIND_LABELS[value] })),
      )}
      {takesArguments && (
        <TextField
          id={idOf('installerArguments')}
          className="sm:col-span-3"
          label="Installer arguments (WinSparkle)"
          hint="Optional, e.g. /SILENT for a silent update"
          placeholder="/SILENT"
          value={installerArguments}
          onValueChange={setInstallerArguments}
        />
      )}
      <div className="sm:col-span-3">
        <label htmlFor={idOf('file')} className="mb-1.5 block text-sm font-medium text-slate-800">
          File (at most 1 GB)
        </label>
        <input
          key={inputKey}
          id={idOf('file')}
          type="file"
          onChange={(event) => setFile(event.target.files?.[0] ?? null)}
          className="block w-full text-sm"
        />
      </div>
      {progress !== null && (
        <div className="sm:col-span-3">
          <label htmlFor={idOf('progress')} className="mb-1 block text-sm text-slate-700">
            {progress < 1 ? `Uploading… ${Math.round(progress * 100)}%` : 'Hashing and signing…'}
          </label>
          <progress id={idOf('progress')} max={1} value={progress} className="h-2 w-full accent-brand-800" />
        </div>
      )}
      <div className="space-y-2 sm:col-span-3">
        <FormError message={error} />
        <Button type="submit" busy={progress !== null}>
          Upload file
        </Button>
      </div>
    </form>
  );
}
