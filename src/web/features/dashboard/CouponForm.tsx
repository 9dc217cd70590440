import { useState } from 'react';
import { type CouponSummary, couponInputProblems, type NewCouponInput } from '../../../shared/coupons';
import type { AdminTool } from '../../../shared/dashboard';
import { Button, Checkbox, FormError, TextField, useForm } from '../../components/form';
import { problem } from './api';
import { SelectField } from './fields';

type CouponValues = {
  code: string;
  kind: 'percent' | 'amount';
  percent: string;
  amountInr: string;
  amountUsd: string;
  startsAt: string;
  endsAt: string;
  maxUses: string;
  reusable: boolean;
};

const FIELDS = [
  'code',
  'percent',
  'amountInr',
  'amountUsd',
  'startsAt',
  'endsAt',
  'maxUses',
] as const satisfies ReadonlyArray<keyof CouponValues>;
const fieldId = (field: string) => `coupon-${field}`;

const INITIAL: CouponValues = {
  code: '',
  kind: 'percent',
  percent: '',
  amountInr: '',
  amountUsd: '',
  startsAt: '',
  endsAt: '',
  maxUses: '',
  reusable: false,
};
const KINDS = [
  { value: 'percent', label: 'A percentage off' },
  { value: 'amount', label: 'A fixed amount off' },
];

/** Typed text as a number, or null when empty; text that is not a number stays NaN for the rules to refuse. */
const numberOrNull = (text: string) => (text.trim() === '' ? null : Number(text.trim()));

function inputOf(values: CouponValues, toolIds: string[]): NewCouponInput {
  const percent = values.kind === 'percent';
  return {
    code: values.code,
    percent: percent ? numberOrNull(values.percent) : null,
    amountInr: percent ? null : numberOrNull(values.amountInr),
    amountUsd: percent ? null : numberOrNull(values.amountUsd),
    toolIds,
    startsAt: values.startsAt || null,
    endsAt: values.endsAt || null,
    maxUses: numberOrNull(values.maxUses),
    reusable: values.reusable,
  };
}

/** A new coupon, checked with the server's rules (couponInputProblems) before it is sent. */
export function CouponForm({
  tools,
  onCreate,
}: {
  tools: AdminTool[];
  onCreate: (input: NewCouponInput) => Promise<CouponSummary>;
}) {
  const form = useForm({ initial: INITIAL, fields: FIELDS, idOf: fieldId });
  const [toolIds, setToolIds] = useState<string[]>([]);
  const { values } = form;

  const submit = form.submit({
    validate: (current) => {
      const {
        toolIds: _tools,
        reusable: _reusable,
        ...problems
      } = couponInputProblems(inputOf(current, toolIds));
      return problems;
    },
    send: async (current) => {
      await onCreate(inputOf(current, toolIds));
      form.setValues(INITIAL);
      setToolIds([]);
    },
    explain: (failure) => problem(failure),
  });

  return (
    <form onSubmit={submit} noValidate className="grid gap-4 sm:grid-cols-2">
      <TextField
        {...form.field('code')}
        label="Code"
        hint="Letters, digits and -; buyers may type it in any case"
        autoCapitalize="characters"
        maxLength={32}
      />
      <SelectField
        id={fieldId('kind')}
        label="Discount"
        value={values.kind}
        onValueChange={form.change('kind')}
        options={KINDS}
      />
      {values.kind === 'percent' ? (
        <TextField
          {...form.field('percent')}
          label="Percent off"
          inputMode="numeric"
          hint="1 to 100; 100 makes the tool free"
        />
      ) : (
        <>
          <TextField
            {...form.field('amountInr')}
            label="Amount off INR prices"
            inputMode="decimal"
            hint="Like 100 or 99.50"
          />
          <TextField
            {...form.field('amountUsd')}
            label="Amount off USD prices"
            inputMode="decimal"
            hint="Empty: the INR amount / 75"
          />
        </>
      )}
      <TextField
        {...form.field('startsAt')}
        label="Starts"
        type="date"
        hint="Empty: now (dates in India time)"
      />
      <TextField
        {...form.field('endsAt')}
        label="Ends"
        type="date"
        hint="Empty: never; the day itself is included"
      />
      <TextField
        {...form.field('maxUses')}
        label="Uses allowed in all"
        inputMode="numeric"
        hint="Empty: no limit"
      />
      <div className="sm:self-end">
        <Checkbox
          label="A buyer may use it more than once"
          checked={values.reusable}
          onCheckedChange={(checked) => form.set('reusable', checked)}
        />
      </div>
      <fieldset className="sm:col-span-2">
        <legend className="mb-1 text-sm font-medium text-slate-800">Tools (none ticked: every tool)</legend>
        <div className="grid gap-x-4 sm:grid-cols-2">
          {tools.map((tool) => (
            <Checkbox
              key={tool.id}
              label={tool.device ? `${tool.name} (${tool.device})` : tool.name}
              checked={toolIds.includes(tool.id)}
              onCheckedChange={(checked) =>
                setToolIds((current) =>
                  checked ? [...current, tool.id] : current.filter((id) => id !== tool.id),
                )
              }
            />
          ))}
        </div>
      </fieldset>
      <div className="space-y-2 sm:col-span-2">
        <FormError message={form.formError} />
        <Button type="submit" busy={form.busy === 'submit'}>
          Create the coupon
        </Button>
      </div>
    </form>
  );
}
