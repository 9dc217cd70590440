import { useState } from 'react';
import type { Currency } from '../../../shared/constants';
import type { CouponCheckResponse } from '../../../shared/coupons';
import { formatPrice } from '../../../shared/money';
import { Button, controlProps, Field, inputClass } from '../../components/form';
import { announce } from '../../lib/announce';
import { ApiError } from '../../lib/api';
import { shopApi } from './api';

/** Said when the check itself failed (no answer, a server error): never a reason the server did not give. */
const CHECK_FAILED = 'The code could not be checked. Please try again.';

export type AppliedCoupon = CouponCheckResponse;

/**
 * The billing form's optional "Coupon code" with "Apply": asks the server what the code takes off and shows the
 * new price, or the server's reason. Only a preview: the order is priced by the server when it is created.
 */
export function CouponField({
  id,
  toolId,
  currency,
  applied,
  onApplied,
}: {
  id: string;
  toolId: string;
  currency: Currency;
  applied: AppliedCoupon | null;
  onApplied: (coupon: AppliedCoupon | null) => void;
}) {
  const [typed, setTyped] = useState(applied?.code ?? '');
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  const resultId = `${id}-result`;

  const apply = async () => {
    const code = typed.trim();
    if (!code || busy) return;
    setBusy(true);
    setError(null);
    try {
      const coupon = await shopApi.checkCoupon({ toolId, currency, code });
      onApplied(coupon);
      announce(
        `Coupon ${coupon.code} applied: ${formatPrice(coupon.discount, currency)} off, new price ${formatPrice(coupon.price, currency)}.`,
      );
    } catch (failure) {
      const message = (failure instanceof ApiError && failure.serverMessage) || CHECK_FAILED;
      onApplied(null);
      setError(message);
      announce(message);
    } finally {
      setBusy(false);
    }
  };

  const { 'aria-describedby': describedBy, ...control } = controlProps(id, error);
  return (
    <div>
      <Field id={id} label="Coupon code" optional error={error}>
        <div className="flex gap-2">
          <input
            {...control}
            aria-describedby={[describedBy, applied ? resultId : ''].filter(Boolean).join(' ') || undefined}
            value={typed}
            onChange={(event) => {
              setTyped(event.target.value);
              setError(null);
              if (applied) onApplied(null);
            }}
            onKeyDown={(event) => {
              // Enter applies the code rather than sending the whole form.
              if (event.key === 'Enter') {
                event.preventDefault();
                void apply();
              }
            }}
            autoComplete="off"
            autoCapitalize="characters"
            spellCheck={false}
            maxLength={32}
            className={`${inputClass(Boolean(error))} uppercase`}
          />
          <Button variant="secondary" busy={busy} onClick={() => void apply()}>
            Apply
          </Button>
        </div>
      </Field>
      {applied && (
        <p id={resultId} className="mt-1.5 text-sm text-green-800">
          {applied.code}: {formatPrice(applied.discount, currency)} off. New price{' '}
          <strong>{formatPrice(applied.price, currency)}</strong>
        </p>
      )}
    </div>
  );
}
