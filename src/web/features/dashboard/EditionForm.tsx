import { useEffect, useId } from 'react';
import { DASHBOARD_MESSAGES } from '../../../shared/dashboard';
import {
  type AdminEdition,
  type DashboardEditionChanges,
  type DashboardNewEdition,
  dashboardEditionChangesSchema,
  dashboardNewEditionSchema,
} from '../../../shared/edition-schemas';
import {
  ACTIVATION_LIMIT_PROBLEM,
  asSentence,
  parseActivationLimitText,
  parsePriceText,
} from '../../../shared/tool-rules';
import { Button, Checkbox, FormError, TextField, useForm } from '../../components/form';
import { problem } from './api';
import { AuthenticatorCodeField } from './fields';
import { typedPrice } from './toolValues';

type EditionValues = {
  name: string;
  priceInrPaise: string;
  priceUsdCents: string;
  entitlements: string;
  deviceLimit: string;
  trial: boolean;
  code: string;
};
/** Named as the server names them, so its field errors land on them. */
const FIELDS = [
  'name',
  'priceInrPaise',
  'priceUsdCents',
  'entitlements',
  'deviceLimit',
  'code',
] as const satisfies ReadonlyArray<keyof EditionValues>;
type EditionField = (typeof FIELDS)[number];

const valuesOf = (edition: AdminEdition | null): EditionValues => ({
  name: edition?.name ?? '',
  priceInrPaise: edition ? typedPrice(edition.priceInrPaise) : '',
  priceUsdCents: edition ? typedPrice(edition.priceUsdCents) : '',
  entitlements: edition?.entitlements.join(', ') ?? '',
  deviceLimit: edition?.deviceLimit === null || !edition ? '' : String(edition.deviceLimit),
  trial: edition?.trial ?? false,
  code: '',
});

/** Typed text as the API takes it, or the problem with it (said on its field). */
type Parsed =
  | { input: Omit<DashboardNewEdition, 'code'> }
  | { problems: Partial<Record<EditionField, string>> };

function parse(values: EditionValues): Parsed {
  const problems: Partial<Record<EditionField, string>> = {};
  const price = (field: 'priceInrPaise' | 'priceUsdCents', text: string) => {
    const parsed = parsePriceText(text);
    if ('problem' in parsed) problems[field] = asSentence(parsed.problem);
    return 'subunits' in parsed ? parsed.subunits : 0;
  };
  const priceInrPaise = price('priceInrPaise', values.priceInrPaise);
  const priceUsdCents = values.priceUsdCents.trim() ? price('priceUsdCents', values.priceUsdCents) : null;
  const deviceLimit = values.deviceLimit.trim() ? parseActivationLimitText(values.deviceLimit) : null;
  if (deviceLimit === undefined) problems.deviceLimit = asSentence(ACTIVATION_LIMIT_PROBLEM);
  const entitlements = values.entitlements.split(/[\s,]+/).filter(Boolean);
  if (Object.keys(problems).length > 0) return { problems };
  return {
    input: {
      name: values.name,
      priceInrPaise,
      priceUsdCents,
      entitlements,
      deviceLimit: deviceLimit ?? null,
    },
  };
}

/** The schema's messages by field (an entitlement's own message goes on the entitlements field). */
function schemaProblems(result: {
  error?: { issues: Array<{ path: PropertyKey[]; message: string }> };
}): Partial<Record<EditionField, string>> {
  const problems: Partial<Record<EditionField, string>> = {};
  for (const issue of result.error?.issues ?? []) {
    const field = issue.path[0] as EditionField | undefined;
    if (field && FIELDS.includes(field)) problems[field] ??= issue.message;
  }
  return problems;
}

/**
 * An edition's fields (decision 056), checked with the server's own schema before sending: its name, INR and USD
 * prices, the entitlement codes it unlocks, its device limit (empty: the tool's) and, for an edition there is, whether
 * the tool's trial runs as it. Setting or changing a price asks for a fresh authenticator code, as a tool's does.
 */
export function EditionForm({
  edition,
  toolActivationLimit,
  onSave,
  onCancel,
}: {
  /** null: a new edition, above the others. */
  edition: AdminEdition | null;
  toolActivationLimit: number;
  onSave: (input: DashboardNewEdition | DashboardEditionChanges) => Promise<void>;
  onCancel: () => void;
}) {
  const prefix = useId();
  const idOf = (field: string) => `${prefix}-${field}`;
  const form = useForm({ initial: valuesOf(edition), fields: FIELDS, idOf });
  // Opened by its button, which goes while it is open: focus starts at its first field.
  // biome-ignore lint/correctness/useExhaustiveDependencies: once, when the form opens.
  useEffect(() => document.getElementById(idOf('name'))?.focus(), []);
  const { values } = form;
  const pricesChanged =
    !edition ||
    values.priceInrPaise.trim() !== typedPrice(edition.priceInrPaise) ||
    values.priceUsdCents.trim() !== typedPrice(edition.priceUsdCents);

  const request = (current: EditionValues, input: Omit<DashboardNewEdition, 'code'>) => ({
    ...input,
    ...(edition && current.trial && !edition.trial ? { trial: true as const } : {}),
    ...(pricesChanged ? { code: current.code } : {}),
  });

  const submit = form.submit({
    validate: (current) => {
      const parsed = parse(current);
      if ('problems' in parsed) return parsed.problems;
      const schema = edition ? dashboardEditionChangesSchema : dashboardNewEditionSchema;
      const problems = schemaProblems(schema.safeParse(request(current, parsed.input)));
      if (pricesChanged && !/^\s*\d{6}\s*$/.test(current.code))
        problems.code ??= DASHBOARD_MESSAGES.totpFormat;
      return problems;
    },
    send: async (current) => {
      const parsed = parse(current);
      if ('input' in parsed) await onSave(request(current, parsed.input));
    },
    explain: (failure, onFields) => (onFields ? null : problem(failure)),
  });

  const title = edition ? `Edit ${edition.name}` : 'New edition';
  return (
    <form
      onSubmit={submit}
      noValidate
      aria-label={title}
      // Escape leaves the form as Cancel does (nothing is saved).
      onKeyDown={(event) => {
        if (event.key === 'Escape') onCancel();
      }}
      className="grid gap-4 rounded-lg border border-slate-200 bg-slate-50 p-4 sm:grid-cols-2"
    >
      <h3 className="text-sm font-semibold text-slate-900 sm:col-span-2">{title}</h3>
      <TextField
        {...form.field('name')}
        label="Name"
        className="sm:col-span-2"
        hint="Like Standard or Pro; a buyer sees it at checkout and on the invoice"
        autoComplete="off"
      />
      <TextField
        {...form.field('priceInrPaise')}
        label="Price in INR"
        inputMode="decimal"
        hint="Like 1499 or 1499.50, GST included"
      />
      <TextField
        {...form.field('priceUsdCents')}
        label="Price in USD"
        inputMode="decimal"
        hint="Empty: USD buyers pay the INR price / 75"
      />
      <TextField
        {...form.field('entitlements')}
        label="Entitlements"
        hint="Codes the tool checks, separated by commas, like ocr, batch; empty: none"
        autoComplete="off"
        spellCheck={false}
      />
      <TextField
        {...form.field('deviceLimit')}
        label="Device limit"
        inputMode="numeric"
        hint={`Empty: the tool's limit (${toolActivationLimit})`}
      />
      {edition &&
        (edition.trial ? (
          <p className="text-sm text-slate-700 sm:col-span-2">
            The tool's free trial runs as this edition; choose another edition to change that.
          </p>
        ) : (
          <div className="sm:col-span-2">
            <Checkbox
              label="The free trial runs as this edition"
              checked={values.trial}
              onCheckedChange={(checked) => form.set('trial', checked)}
            />
          </div>
        ))}
      {pricesChanged && (
        <AuthenticatorCodeField
          {...form.field('code')}
          label={
            edition
              ? 'Code from your authenticator app (prices are changing)'
              : 'Code from your authenticator app'
          }
          className="sm:col-span-2"
        />
      )}
      <div className="space-y-2 sm:col-span-2">
        <FormError message={form.formError} />
        <div className="flex flex-wrap gap-2">
          <Button type="submit" busy={form.busy === 'submit'}>
            {edition ? 'Save the edition' : 'Add the edition'}
          </Button>
          <Button variant="secondary" onClick={onCancel}>
            Cancel
          </Button>
        </div>
      </div>
    </form>
  );
}
