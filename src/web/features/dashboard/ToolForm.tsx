import { type AdminTool, type ToolInput, toolInputProblems } from '../../../shared/dashboard';
import { defaultPackageId } from '../../../shared/releases';
import { ACTIVATION_LIMIT_RANGE, TOOL_TEXT_MAX } from '../../../shared/tool-rules';
import { TRIAL_DAYS_RANGE } from '../../../shared/trials';
import { Button, Checkbox, FormError, TextAreaField, TextField, useForm } from '../../components/form';
import { problem } from './api';
import { AuthenticatorCodeField, SelectField } from './fields';
import { FIELDS, fieldId, type ToolValues, typedPrice, valuesOf } from './toolValues';

const DEVICES = [
  { value: 'Windows', label: 'Windows' },
  { value: 'macOS', label: 'macOS' },
  { value: 'none', label: 'No device' },
];
const LICENSE_MODEL_OPTIONS = [
  { value: 'per-device', label: 'Per device' },
  { value: 'floating', label: 'Floating (heartbeats)' },
];
const DELIVERIES = [
  { value: 'license_key', label: 'License key' },
  { value: 'credentials', label: 'Username and password' },
];

/**
 * A tool's fields, checked with the server's own rules before sending (toolInputProblems) and showing the server's
 * field errors where it still refuses. A change of a price or a renewal price asks for a fresh authenticator code.
 */
export function ToolForm({
  tool,
  onSave,
}: {
  /** null: a new tool. */
  tool: AdminTool | null;
  /** Sends the input and answers the tool as stored (null: nothing to show, e.g. leaving the screen); a refusal is thrown as the API's error. */
  onSave: (input: ToolInput) => Promise<AdminTool | null>;
}) {
  const form = useForm({ initial: valuesOf(tool), fields: FIELDS, idOf: fieldId });
  const { values } = form;
  const pricesChanged =
    !tool ||
    values.priceINR !== typedPrice(tool.pricePaise) ||
    values.priceUSD !== typedPrice(tool.priceCents) ||
    values.renewalPriceINR !== typedPrice(tool.renewalPricePaise) ||
    values.renewalPriceUSD !== typedPrice(tool.renewalPriceCents);
  const input = ({ code, ...rest }: ToolValues): ToolInput => (pricesChanged ? { ...rest, code } : rest);

  const submit = form.submit({
    validate: (current) => toolInputProblems(input(current)),
    send: async (current) => {
      const saved = await onSave(input(current));
      // The form goes on from what the server stored (prices as it rounded them), without the used code.
      if (saved) form.setValues(valuesOf(saved));
    },
    explain: (failure) => problem(failure),
  });

  return (
    <form onSubmit={submit} noValidate className="grid gap-4 sm:grid-cols-2">
      <TextField
        {...form.field('name')}
        label="Name"
        className="sm:col-span-2"
        maxLength={TOOL_TEXT_MAX.name}
      />
      <TextAreaField {...form.field('description')} label="Description" className="sm:col-span-2" rows={4} />
      <SelectField {...form.field('device')} label="Device" options={DEVICES} />
      <SelectField {...form.field('delivery')} label="Delivery" options={DELIVERIES} />
      <TextField
        {...form.field('priceINR')}
        label="Price in INR"
        inputMode="decimal"
        hint="Like 499 or 1499.50"
      />
      <TextField
        {...form.field('priceUSD')}
        label="Price in USD"
        inputMode="decimal"
        hint="Empty: USD buyers pay the INR price / 75"
      />
      <TextField
        {...form.field('activationLimit')}
        label="Activation limit"
        inputMode="numeric"
        hint={`Machines one license may run on at a time (${ACTIVATION_LIMIT_RANGE.min} to ${ACTIVATION_LIMIT_RANGE.max})`}
      />
      <SelectField
        {...form.field('licenseModel')}
        label="License model"
        hint="Floating: a machine holds a seat while it sends heartbeats; a quiet one frees it by itself"
        options={LICENSE_MODEL_OPTIONS}
      />
      {values.licenseModel === 'floating' && (
        <TextField
          {...form.field('heartbeatMinutes')}
          label="Heartbeat interval (minutes)"
          inputMode="numeric"
          hint={`How often the tool checks in (at least 1); a seat frees after twice this without one`}
        />
      )}
      <TextField
        {...form.field('trialDays')}
        label="Trial days"
        inputMode="numeric"
        hint={`Length of the free trial a signed-in visitor may start (0: no trial, up to ${TRIAL_DAYS_RANGE.max})`}
      />
      <TextField
        {...form.field('packageId')}
        label="Velopack package id"
        placeholder={defaultPackageId(values.name)}
        autoComplete="off"
        spellCheck={false}
        hint="What vpk pack --packId was given; empty: the name's letters and digits"
      />
      <TextField
        {...form.field('updatesMonths')}
        label="Updates included"
        className="sm:col-span-2"
        autoComplete="off"
        spellCheck={false}
        hint="lifetime, or months like 12m: later releases then need a renewal (new purchases only; an edition sets its own)"
      />
      <TextField
        {...form.field('renewalPriceINR')}
        label="Renewal cost in INR"
        inputMode="decimal"
        hint="Another period of updates, like 599; needed with a number of months"
      />
      <TextField
        {...form.field('renewalPriceUSD')}
        label="Renewal cost in USD"
        inputMode="decimal"
        hint="Empty: USD buyers pay the INR renewal price / 75"
      />
      <Checkbox
        label="Coming soon (shown, cannot be bought)"
        checked={values.comingSoon}
        onCheckedChange={(checked) => form.set('comingSoon', checked)}
      />
      <Checkbox
        label="Shown on the site"
        checked={values.active}
        onCheckedChange={(checked) => form.set('active', checked)}
      />
      {pricesChanged && (
        <AuthenticatorCodeField
          {...form.field('code')}
          label="Code from your authenticator app (prices are changing)"
          className="sm:col-span-2"
        />
      )}
      <div className="space-y-2 sm:col-span-2">
        <FormError message={form.formError} />
        <Button type="submit" busy={form.busy === 'submit'}>
          {tool ? 'Save changes' : 'Add the tool'}
        </Button>
      </div>
    </form>
  );
}
