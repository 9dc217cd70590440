import { type FormEvent, useState } from 'react';
import type { AdminTool } from '../../../shared/dashboard';
import { asSentence, FILE_TOO_LARGE, TOOL_FILE_MAX_BYTES } from '../../../shared/tool-rules';
import { Button, FormError } from '../../components/form';
import { useAction } from '../../components/form/useAction';
import { dashboardApi, problem } from './api';

import { AuthenticatorCodeField } from './fields';
import { Card, formatFileSize } from './ui';

/** The download file: streamed to storage, its size and SHA-256 shown; needs a fresh authenticator code. */
export function UploadPanel({
  tool,
  onUploaded,
}: {
  tool: AdminTool;
  onUploaded: (tool: AdminTool) => void;
}) {
  const [file, setFile] = useState<File | null>(null);
  const [code, setCode] = useState('');
  const { run, busy, error, fail } = useAction(problem);
  const submit = async (event: FormEvent) => {
    event.preventDefault();
    if (!file) return fail('Choose the file to upload.');
    if (file.size > TOOL_FILE_MAX_BYTES) return fail(asSentence(FILE_TOO_LARGE));
    await run(async () => {
      onUploaded(await dashboardApi.uploadToolFile(tool.id, file, code));
      setFile(null);
      setCode('');
    });
  };
  return (
    <Card title="Download file">
      {tool.file ? (
        <dl className="mb-4 grid gap-1 text-sm">
          <dt className="text-slate-600">Current file</dt>
          <dd className="break-words">
            {tool.file.name} · {formatFileSize(tool.file.size)}
          </dd>
          <dt className="text-slate-600">SHA-256</dt>
          <dd className="break-all font-mono text-xs" data-testid="file-sha256">
            {tool.file.sha256}
          </dd>
        </dl>
      ) : (
        <p className="mb-4 text-sm text-slate-600">
          No file yet: buyers get no download link until there is one.
        </p>
      )}
      <form onSubmit={submit} className="space-y-3">
        <div>
          <label htmlFor="tool-file" className="mb-1.5 block text-sm font-medium text-slate-800">
            File (at most 2 GB)
          </label>
          <input
            id="tool-file"
            type="file"
            onChange={(event) => setFile(event.target.files?.[0] ?? null)}
            className="block w-full text-sm"
          />
        </div>
        <AuthenticatorCodeField id="upload-code" value={code} onValueChange={setCode} />
        <FormError message={error} />
        <Button type="submit" busy={busy}>
          Upload
        </Button>
      </form>
    </Card>
  );
}
