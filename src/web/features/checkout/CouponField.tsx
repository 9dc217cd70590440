import { useState } from 'react';
import type { Currency } from '../../../shared/constants';
import { formatSubunits } from '../../../shared/money';
import { Button, controlProps, Field, inputClass } from '../../components/form';

export type AppliedCoupon = { code: string; discount: number; total: number };

/**
 * The billing form's optional "Coupon code" with "Apply". The form asks the server for a quote with the code: it
 * answers what the code takes off, or why it does not apply (a normal answer, shown on the field).
 */
export function CouponField({
  id,
  currency,
  initialCode,
  applied,
  refusal,
  busy,
  onApply,
  onEdit,
}: {
  id: string;
  currency: Currency;
  /** A code to start from (the last checkout's, or a link's). */
  initialCode?: string;
  applied: AppliedCoupon | null;
  /** Why the code asked about does not apply, as the server said. */
  refusal: string | null;
  busy: boolean;
  onApply: (code: string) => void;
  /** The buyer changed the code: what was applied or refused no longer stands. */
  onEdit: () => void;
}) {
  const [typed, setTyped] = useState(initialCode ?? '');
  const resultId = `${id}-result`;

  const apply = () => {
    const code = typed.trim();
    if (code && !busy) onApply(code);
  };

  const { 'aria-describedby': describedBy, ...control } = controlProps(id, refusal);
  return (
    <div>
      <Field id={id} label="Coupon code" optional error={refusal}>
        <div className="flex gap-2">
          <input
            {...control}
            aria-describedby={[describedBy, applied ? resultId : ''].filter(Boolean).join(' ') || undefined}
            value={typed}
            onChange={(event) => {
              setTyped(event.target.value);
              if (applied || refusal) onEdit();
            }}
            onKeyDown={(event) => {
              // Enter applies the code rather than sending the whole form.
              if (event.key === 'Enter') {
                event.preventDefault();
                apply();
              }
            }}
            autoComplete="off"
            autoCapitalize="characters"
            spellCheck={false}
            maxLength={32}
            className={`${inputClass(Boolean(refusal))} uppercase`}
          />
          <Button variant="secondary" busy={busy} onClick={apply}>
            Apply
          </Button>
        </div>
      </Field>
      {applied && (
        <p id={resultId} className="mt-1.5 text-sm text-emerald-800">
          {applied.code}: {formatSubunits(applied.discount, currency)} off. New price{' '}
          <strong>{formatSubunits(applied.total, currency)}</strong>
        </p>
      )}
    </div>
  );
}
