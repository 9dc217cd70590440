import { type FormEvent, useEffect, useState } from 'react';
import { Link, useLocation } from 'wouter';
import type { AdminTool, ToolInput } from '../../../shared/dashboard';
import {
  ACTIVATION_LIMIT_RANGE,
  asSentence,
  DEFAULT_ACTIVATION_LIMIT,
  FILE_TOO_LARGE,
  TOOL_FILE_MAX_BYTES,
  TOOL_TEXT_MAX,
} from '../../../shared/tool-rules';
import { ApiError } from '../../lib/api';
import { adminApi, problem } from './api';
import { ArrowLeft } from './icons';
import { Button, Card, ErrorText, Field, ScreenTitle, useScreenTitle } from './ui';
import { useAdminData, useRecordId } from './useAdminData';

type FormState = Omit<ToolInput, 'code'>;

const EMPTY: FormState = {
  name: '',
  description: '',
  device: 'Windows',
  priceINR: '',
  priceUSD: '',
  comingSoon: false,
  active: true,
  delivery: 'license_key',
  activationLimit: String(DEFAULT_ACTIVATION_LIMIT),
};

const typedPrice = (subunits: number | null) => (subunits === null ? '' : (subunits / 100).toFixed(2));

function formOf(tool: AdminTool): FormState {
  return {
    name: tool.name,
    description: tool.description,
    device: tool.device ?? 'none',
    priceINR: typedPrice(tool.priceINR),
    priceUSD: typedPrice(tool.priceUSD),
    comingSoon: tool.comingSoon,
    active: tool.active,
    delivery: tool.delivery,
    activationLimit: String(tool.activationLimit),
  };
}

const megabytes = (bytes: number) => `${(bytes / (1024 * 1024)).toFixed(1)} MB`;

/** The download file: streamed to storage, its size and SHA-256 shown; needs a fresh authenticator code. */
function UploadPanel({ tool, onUploaded }: { tool: AdminTool; onUploaded: (tool: AdminTool) => void }) {
  const [file, setFile] = useState<File | null>(null);
  const [code, setCode] = useState('');
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  const submit = async (event: FormEvent) => {
    event.preventDefault();
    if (!file) return setError('Choose the file to upload.');
    if (file.size > TOOL_FILE_MAX_BYTES) return setError(asSentence(FILE_TOO_LARGE));
    setBusy(true);
    setError(null);
    try {
      onUploaded(await adminApi.uploadToolFile(tool.id, file, code));
      setFile(null);
      setCode('');
    } catch (failure) {
      setError(problem(failure));
    } finally {
      setBusy(false);
    }
  };
  return (
    <Card title="Download file">
      {tool.file ? (
        <dl className="mb-4 grid gap-1 text-sm">
          <dt className="text-slate-600">Current file</dt>
          <dd className="break-words">
            {tool.file.name} · {megabytes(tool.file.size)}
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
        <Field
          id="upload-code"
          label="Code from your authenticator app"
          inputMode="numeric"
          autoComplete="one-time-code"
          maxLength={7}
          value={code}
          onValueChange={setCode}
        />
        <ErrorText message={error} />
        <Button type="submit" busy={busy}>
          Upload
        </Button>
      </form>
    </Card>
  );
}

/** Create or edit a tool, with the command line's rules; price changes ask for a fresh authenticator code. */
export function ToolEditScreen() {
  const id = useRecordId() || undefined;
  const creating = id === undefined;
  useScreenTitle(creating ? 'Add a tool' : 'Edit tool');
  const [, navigate] = useLocation();
  const existing = useAdminData(() => (creating ? Promise.resolve(null) : adminApi.tool(id)), id ?? 'new');
  const [tool, setTool] = useState<AdminTool | null>(null);
  const [form, setForm] = useState<FormState>(EMPTY);
  const [code, setCode] = useState('');
  const [errors, setErrors] = useState<Record<string, string>>({});
  const [error, setError] = useState<string | null>(null);
  const [notice, setNotice] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);

  useEffect(() => {
    if (existing.data) {
      setTool(existing.data);
      setForm(formOf(existing.data));
    }
  }, [existing.data]);

  const pricesChanged =
    creating ||
    !tool ||
    form.priceINR !== typedPrice(tool.priceINR) ||
    form.priceUSD !== typedPrice(tool.priceUSD);
  const set = <K extends keyof FormState>(key: K, value: FormState[K]) =>
    setForm((current) => ({ ...current, [key]: value }));

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    setBusy(true);
    setErrors({});
    setError(null);
    setNotice(null);
    const input: ToolInput = { ...form, ...(pricesChanged ? { code } : {}) };
    try {
      const saved = creating ? await adminApi.createTool(input) : await adminApi.updateTool(id, input);
      setCode('');
      if (creating) {
        navigate(`/admin/tools/${saved.id}`);
      } else {
        setTool(saved);
        setForm(formOf(saved));
        setNotice('Saved. The site shows the change now.');
      }
    } catch (failure) {
      if (failure instanceof ApiError && failure.body?.fieldErrors) setErrors(failure.body.fieldErrors);
      setError(problem(failure));
    } finally {
      setBusy(false);
    }
  };

  return (
    <>
      <Link
        to="/admin/tools"
        className="mb-3 inline-flex items-center gap-1 text-sm font-medium text-brand-700 underline underline-offset-2"
      >
        <ArrowLeft className="size-4" aria-hidden="true" />
        Tools
      </Link>
      <ScreenTitle title={creating ? 'Add a tool' : (tool?.name ?? 'Edit tool')} />
      <ErrorText message={existing.error} />
      {notice && (
        <p role="status" className="mb-4 rounded-lg bg-green-50 px-4 py-3 text-sm text-green-900">
          {notice}
        </p>
      )}
      {(creating || tool) && (
        <div className="grid gap-4 lg:grid-cols-[2fr_1fr]">
          <Card>
            <form onSubmit={submit} noValidate className="grid gap-4 sm:grid-cols-2">
              <Field
                id="tool-name"
                label="Name"
                className="sm:col-span-2"
                value={form.name}
                onValueChange={(v) => set('name', v)}
                error={errors.name}
                maxLength={TOOL_TEXT_MAX.name}
              />
              <div className="sm:col-span-2">
                <label htmlFor="tool-description" className="mb-1.5 block text-sm font-medium text-slate-800">
                  Description
                </label>
                <textarea
                  id="tool-description"
                  rows={4}
                  value={form.description}
                  onChange={(event) => set('description', event.target.value)}
                  aria-invalid={errors.description ? true : undefined}
                  aria-describedby={errors.description ? 'tool-description-error' : undefined}
                  className="block w-full rounded-lg border border-slate-300 bg-white px-3 py-2 text-base"
                />
                <ErrorText id="tool-description-error" message={errors.description} />
              </div>
              <div>
                <label htmlFor="tool-device" className="mb-1.5 block text-sm font-medium text-slate-800">
                  Device
                </label>
                <select
                  id="tool-device"
                  value={form.device}
                  onChange={(event) => set('device', event.target.value as FormState['device'])}
                  className="block w-full rounded-lg border border-slate-300 bg-white px-3 py-2 text-base"
                >
                  <option value="Windows">Windows</option>
                  <option value="macOS">macOS</option>
                  <option value="none">No device</option>
                </select>
              </div>
              <div>
                <label htmlFor="tool-delivery" className="mb-1.5 block text-sm font-medium text-slate-800">
                  Delivery
                </label>
                <select
                  id="tool-delivery"
                  value={form.delivery}
                  onChange={(event) => set('delivery', event.target.value as FormState['delivery'])}
                  className="block w-full rounded-lg border border-slate-300 bg-white px-3 py-2 text-base"
                >
                  <option value="license_key">License key</option>
                  <option value="credentials">Username and password</option>
                </select>
              </div>
              <Field
                id="tool-price-inr"
                label="Price in INR"
                inputMode="decimal"
                value={form.priceINR}
                onValueChange={(v) => set('priceINR', v)}
                error={errors.priceINR}
                hint="Like 499 or 1499.50"
              />
              <Field
                id="tool-price-usd"
                label="Price in USD"
                inputMode="decimal"
                value={form.priceUSD}
                onValueChange={(v) => set('priceUSD', v)}
                error={errors.priceUSD}
                hint="Empty: USD buyers pay the INR price / 75"
              />
              <Field
                id="tool-activation-limit"
                label="Activation limit"
                inputMode="numeric"
                value={form.activationLimit}
                onValueChange={(v) => set('activationLimit', v)}
                error={errors.activationLimit}
                hint={`Machines one license may run on at a time (${ACTIVATION_LIMIT_RANGE.min} to ${ACTIVATION_LIMIT_RANGE.max})`}
              />
              <div aria-hidden="true" className="hidden sm:block" />
              <label className="flex items-center gap-2 text-sm text-slate-800">
                <input
                  type="checkbox"
                  checked={form.comingSoon}
                  onChange={(event) => set('comingSoon', event.target.checked)}
                  className="size-4"
                />
                Coming soon (shown, cannot be bought)
              </label>
              <label className="flex items-center gap-2 text-sm text-slate-800">
                <input
                  type="checkbox"
                  checked={form.active}
                  onChange={(event) => set('active', event.target.checked)}
                  className="size-4"
                />
                Shown on the site
              </label>
              {pricesChanged && (
                <Field
                  id="tool-code"
                  label="Code from your authenticator app (prices are changing)"
                  className="sm:col-span-2"
                  inputMode="numeric"
                  autoComplete="one-time-code"
                  maxLength={7}
                  value={code}
                  onValueChange={setCode}
                  error={errors.code}
                />
              )}
              <div className="sm:col-span-2">
                <ErrorText message={error} />
                <Button type="submit" busy={busy} className="mt-2">
                  {creating ? 'Add the tool' : 'Save changes'}
                </Button>
              </div>
            </form>
          </Card>
          {tool && <UploadPanel tool={tool} onUploaded={setTool} />}
        </div>
      )}
    </>
  );
}
