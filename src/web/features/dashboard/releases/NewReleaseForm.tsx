import type { ReactNode } from 'react';
import {
  type AdminRelease,
  MINIMUM_MACOS_PATTERN,
  MINIMUM_WINDOWS_PATTERN,
} from '../../../../shared/releases';
import { Button, Checkbox, Field, FormError, Select, TextField, useForm } from '../../../components/form';
import { dashboardApi, problem } from '../api';

const FIELDS = ['version', 'buildNumber', 'minimumMacosVersion', 'minimumWindowsVersion'] as const;
const fieldId = (field: string) => `new-release-${field}`;
const CHANNELS = [
  { value: 'stable', label: 'Stable (everyone)' },
  { value: 'beta', label: 'Beta (apps that opt in)' },
];
const SEMVER = /^v?\d+\.\d+\.\d+(-[0-9A-Za-z.-]+)?(\+[0-9A-Za-z.-]+)?$/;

const EMPTY = {
  version: '',
  buildNumber: '',
  channel: 'stable',
  minimumMacosVersion: '',
  minimumWindowsVersion: '',
  critical: false,
};

/** The tool's platform as the catalogue stores it: Windows, macOS, or none (both). */
export type Device = 'Windows' | 'macOS' | null;

type FieldProps = { id: string; value: string; onValueChange: (value: string) => void; error: string | null };

/**
 * The minimum OS of the tool's own platform (issue 63): a Windows tool's release has no macOS minimum to give, and
 * the reverse; a tool with no platform gets both.
 */
export function MinimumOsFields({
  form,
  device,
}: {
  form: { field: (name: 'minimumMacosVersion' | 'minimumWindowsVersion') => FieldProps };
  device: Device;
}) {
  return (
    <>
      {device !== 'Windows' && (
        <TextField {...form.field('minimumMacosVersion')} label="Minimum macOS" placeholder="e.g. 12.0" />
      )}
      {device !== 'macOS' && (
        <TextField
          {...form.field('minimumWindowsVersion')}
          label="Minimum Windows"
          placeholder="e.g. 10.0.17763"
        />
      )}
    </>
  );
}

/**
 * How both release forms end: the critical flag (it may change after publishing too), the form's error and its
 * submit button; `className` places the last two in the form's grid.
 */
export function CriticalAndSubmit({
  form,
  className,
  children,
}: {
  form: {
    values: { critical: boolean };
    set: (field: 'critical', value: boolean) => void;
    formError: string | null;
    busy: string | null;
  };
  className: string;
  children: ReactNode;
}) {
  return (
    <>
      <Checkbox
        label="Critical update"
        checked={form.values.critical}
        onCheckedChange={(checked) => form.set('critical', checked)}
      />
      <div className={`space-y-2 ${className}`}>
        <FormError message={form.formError} />
        <Button type="submit" busy={form.busy === 'submit'}>
          {children}
        </Button>
      </div>
    </>
  );
}

/**
 * A new draft: its version (semantic), build number (empty: the next one), channel, each platform's minimum OS and
 * whether it is critical; notes come after.
 */
export function NewReleaseForm({
  toolId,
  device,
  onCreated,
}: {
  toolId: string;
  /** The tool's platform: only its minimum OS is asked (both for a tool with none). */
  device: Device;
  onCreated: (release: AdminRelease) => void;
}) {
  const form = useForm({
    initial: EMPTY,
    fields: FIELDS,
    idOf: fieldId,
  });
  const { values } = form;
  const submit = form.submit({
    validate: (current) => ({
      ...(SEMVER.test(current.version.trim())
        ? {}
        : { version: 'Give a semantic version such as 1.1.0 or 2.0.0-beta.1.' }),
      ...(current.buildNumber.trim() === '' || /^[1-9]\d{0,9}$/.test(current.buildNumber.trim())
        ? {}
        : { buildNumber: 'The build number is a whole number, e.g. 42, or empty for the next one.' }),
      ...(current.minimumMacosVersion.trim() === '' ||
      MINIMUM_MACOS_PATTERN.test(current.minimumMacosVersion.trim())
        ? {}
        : { minimumMacosVersion: 'Write the macOS version as major.minor or major.minor.patch, e.g. 12.0.' }),
      ...(current.minimumWindowsVersion.trim() === '' ||
      MINIMUM_WINDOWS_PATTERN.test(current.minimumWindowsVersion.trim())
        ? {}
        : { minimumWindowsVersion: 'Write the Windows version as major.minor.build, e.g. 10.0.17763.' }),
    }),
    send: async (current) => {
      const release = await dashboardApi.createRelease(toolId, {
        version: current.version,
        channel: current.channel === 'beta' ? 'beta' : 'stable',
        notesMarkdown: '',
        buildNumber: current.buildNumber.trim() === '' ? null : Number(current.buildNumber.trim()),
        minimumMacosVersion: current.minimumMacosVersion,
        minimumWindowsVersion: current.minimumWindowsVersion,
        critical: current.critical,
      });
      form.setValues(EMPTY);
      onCreated(release);
    },
    explain: (failure) => problem(failure),
  });
  return (
    <form onSubmit={submit} noValidate className="grid gap-3 sm:grid-cols-2 lg:grid-cols-3 lg:items-end">
      <TextField {...form.field('version')} label="Version" placeholder="1.1.0" />
      <Field id={fieldId('channel')} label="Channel">
        <Select
          id={fieldId('channel')}
          value={values.channel}
          onValueChange={(value) => form.set('channel', value)}
          options={CHANNELS}
        />
      </Field>
      <TextField
        {...form.field('buildNumber')}
        label={device === 'Windows' ? 'Build number' : 'Build number (CFBundleVersion)'}
        placeholder="empty: the next one"
        inputMode="numeric"
      />
      <MinimumOsFields form={form} device={device} />
      <CriticalAndSubmit form={form} className="sm:col-span-2 lg:col-span-3">
        Create draft
      </CriticalAndSubmit>
    </form>
  );
}
