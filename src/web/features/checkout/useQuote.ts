import { useEffect, useRef, useState } from 'react';
import type { CheckoutQuote } from '../../../shared/checkout-quote';
import type { Currency } from '../../../shared/constants';
import { formatSubunits } from '../../../shared/money';
import { announce } from '../../lib/announce';
import { ApiError } from '../../lib/api';
import { checkoutApi } from './api';

/** Said when the quote itself failed (no answer, a server error): never a reason the server did not give. */
const CHECK_FAILED = 'The code could not be checked. Please try again.';

/**
 * The server's price for what the form says now (POST /api/checkout/quote): asked again when the edition, the number
 * of seats, the state, the country or the coupon changes, a moment after the last change (a number typed or stepped
 * through asks once). A tool's order names the tool (and its edition, of a tool with editions); an upgrade or a
 * renewal names the license (and the edition an upgrade moves to). An answer that arrives after a newer question is dropped; no number of seats, no price. An applied
 * code is announced with its effect; a refused one is a normal answer whose reason shows on the field.
 */
export function useQuote({
  toolId,
  teamLicenseId,
  editionId,
  upgradeLicenseId,
  renewLicenseId,
  currency,
  seats,
  state,
  country,
  initialCode,
  tds,
}: {
  /** Priced as the buyer deducting TDS (issue 68): the quote says what is then due. */
  tds: boolean;
  toolId?: string;
  /** "Add seats": the team license the seats join. */
  teamLicenseId?: string;
  editionId?: string;
  upgradeLicenseId?: string;
  renewLicenseId?: string;
  currency: Currency;
  seats: number | null;
  state: string;
  country: string;
  initialCode: string | null;
}) {
  // With the number of seats and the edition it prices: the summary says what the amounts are for while a newer
  // question is asked.
  const [quote, setQuote] = useState<(CheckoutQuote & { seats: number; editionId?: string }) | null>(null);
  const [quoting, setQuoting] = useState(false);
  const [couponCode, setCode] = useState<string | null>(initialCode);
  const [checkFailed, setCheckFailed] = useState<string | null>(null);
  const announceResult = useRef(false);

  const quoted = useRef(false);
  useEffect(() => {
    if (!toolId && !upgradeLicenseId && !renewLicenseId) return;
    if (seats === null) {
      setQuote(null);
      setQuoting(false);
      return;
    }
    let current = true;
    setQuoting(true);
    const ask = () =>
      checkoutApi
        .quote({
          ...(upgradeLicenseId
            ? { upgradeLicenseId }
            : renewLicenseId
              ? { renewLicenseId }
              : { toolId, ...(teamLicenseId ? { teamLicenseId } : {}) }),
          ...(editionId ? { editionId } : {}),
          currency,
          state,
          seats,
          ...(tds ? { tds } : {}),
          ...(country ? { country } : {}),
          ...(couponCode ? { couponCode } : {}),
        })
        .then(
          (answer) => {
            if (!current) return;
            setQuote({ ...answer, seats, editionId });
            setCheckFailed(null);
            if (announceResult.current && answer.coupon) {
              announce(
                answer.coupon.applied
                  ? `Coupon ${answer.coupon.code} applied: ${formatSubunits(answer.discount, currency)} off, new price ${formatSubunits(answer.total, currency)}.`
                  : answer.coupon.message,
              );
            }
          },
          (failure: unknown) => {
            if (!current) return;
            setQuote(null);
            const message = (failure instanceof ApiError && failure.serverMessage) || CHECK_FAILED;
            if (couponCode) {
              setCheckFailed(message);
              if (announceResult.current) announce(message);
            }
          },
        )
        .finally(() => {
          if (!current) return;
          setQuoting(false);
          announceResult.current = false;
        });
    const timer = window.setTimeout(ask, quoted.current ? 300 : 0);
    quoted.current = true;
    return () => {
      current = false;
      window.clearTimeout(timer);
    };
  }, [
    toolId,
    teamLicenseId,
    editionId,
    upgradeLicenseId,
    renewLicenseId,
    currency,
    seats,
    state,
    country,
    couponCode,
    tds,
  ]);

  const setCouponCode = (code: string | null) => {
    announceResult.current = code !== null;
    setCheckFailed(null);
    setCode(code);
  };
  return { quote, quoting, couponCode, setCouponCode, checkFailed };
}
