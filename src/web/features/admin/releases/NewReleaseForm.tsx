import type { AdminRelease } from '../../../../shared/releases';
import { Button, Checkbox, Field, FormError, Select, TextField, useForm } from '../../../components/form';
import { adminApi, problem } from '../api';

const FIELDS = ['version', 'minimumOsVersion'] as const;
const fieldId = (field: string) => `new-release-${field}`;
const CHANNELS = [
  { value: 'stable', label: 'Stable (everyone)' },
  { value: 'beta', label: 'Beta (apps that opt in)' },
];
const SEMVER = /^v?\d+\.\d+\.\d+(-[0-9A-Za-z.-]+)?(\+[0-9A-Za-z.-]+)?$/;

/** A new draft: its version (semantic), channel, minimum OS and whether it is critical; notes come after. */
export function NewReleaseForm({
  toolId,
  onCreated,
}: {
  toolId: string;
  onCreated: (release: AdminRelease) => void;
}) {
  const form = useForm({
    initial: { version: '', channel: 'stable', minimumOsVersion: '', critical: false },
    fields: FIELDS,
    idOf: fieldId,
  });
  const { values } = form;
  const submit = form.submit({
    validate: (current) =>
      SEMVER.test(current.version.trim())
        ? {}
        : { version: 'Give a semantic version such as 1.1.0 or 2.0.0-beta.1.' },
    send: async (current) => {
      const release = await adminApi.createRelease(toolId, {
        version: current.version,
        channel: current.channel === 'beta' ? 'beta' : 'stable',
        notesMarkdown: '',
        minimumOsVersion: current.minimumOsVersion,
        critical: current.critical,
      });
      form.setValues({ version: '', channel: 'stable', minimumOsVersion: '', critical: false });
      onCreated(release);
    },
    explain: (failure) => problem(failure),
  });
  return (
    <form onSubmit={submit} noValidate className="grid gap-3 sm:grid-cols-2 lg:grid-cols-4 lg:items-end">
      <TextField
        id={fieldId('version')}
        label="Version"
        placeholder="1.1.0"
        value={values.version}
        onValueChange={form.change('version')}
        error={form.errorFor('version')}
      />
      <Field id={fieldId('channel')} label="Channel">
        <Select
          id={fieldId('channel')}
          value={values.channel}
          onValueChange={(value) => form.set('channel', value)}
          options={CHANNELS}
        />
      </Field>
      <TextField
        id={fieldId('minimumOsVersion')}
        label="Minimum OS version"
        placeholder="e.g. 12.0"
        value={values.minimumOsVersion}
        onValueChange={form.change('minimumOsVersion')}
        error={form.errorFor('minimumOsVersion')}
      />
      <Checkbox
        label="Critical update"
        checked={values.critical}
        onCheckedChange={(checked) => form.set('critical', checked)}
      />
      <div className="space-y-2 sm:col-span-2 lg:col-span-4">
        <FormError message={form.formError} />
        <Button type="submit" busy={form.busy === 'submit'}>
          Create draft
        </Button>
      </div>
    </form>
  );
}
