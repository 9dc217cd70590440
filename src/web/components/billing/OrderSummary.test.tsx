import { cleanup, render, screen } from '@testing-library/react';
import { afterEach, describe, expect, it } from 'vitest';
import type { CheckoutQuote } from '../../../shared/checkout-quote';
import { OrderSummary } from './OrderSummary';

afterEach(cleanup);

describe('the order summary', () => {
  const quote: Omit<CheckoutQuote, 'coupon'> = {
    listPrice: 749_500,
    discount: 149_900,
    taxableValue: 508_135,
    taxes: [{ name: 'IGST', rate: 18, amount: 91_465 }],
    total: 599_600,
    tds: 0,
    amountDue: 599_600,
    currency: 'INR',
  };

  it('shows the seats and the price of one, as the invoice line does', () => {
    render(<OrderSummary quote={quote} seats={5} couponCode="TEAM20" />);
    expect(screen.getByText('List price (5 × ₹1,499.00)')).toBeTruthy();
    expect(screen.getByText('₹7,495.00')).toBeTruthy();
    expect(screen.getByTestId('order-total').textContent).toBe('₹5,996.00');
  });

  it('takes TDS off the total and says what is due, when the buyer deducts it', () => {
    render(
      <OrderSummary quote={{ ...quote, tds: 50_814, amountDue: 548_786 }} seats={5} couponCode={null} />,
    );
    expect(screen.getByText('Less TDS, s. 194J (10 % of taxable value)')).toBeTruthy();
    expect(screen.getByText('−₹508.14')).toBeTruthy();
    expect(screen.getByTestId('order-total').textContent).toBe('₹5,996.00');
    expect(screen.getByTestId('order-amount-due').textContent).toBe('₹5,487.86');
  });

  it('shows GST as one line until a state is chosen, then split as the invoice will be', () => {
    const split = {
      ...quote,
      taxes: [
        { name: 'CGST' as const, rate: 9, amount: 45_732 },
        { name: 'SGST' as const, rate: 9, amount: 45_733 },
      ],
    };
    const { rerender } = render(<OrderSummary quote={split} couponCode={null} stateChosen={false} />);
    const summary = screen.getByRole('region', { name: 'Order summary' });
    expect(summary.textContent).toContain('GST 18 % (split by the state you choose)₹914.65');
    expect(summary.textContent).not.toMatch(/CGST|SGST|IGST/);
    expect(screen.getByTestId('order-total').textContent).toBe('₹5,996.00');

    rerender(<OrderSummary quote={split} couponCode={null} />);
    expect(summary.textContent).toContain('CGST 9 %₹457.32');
    expect(summary.textContent).toContain('SGST 9 %₹457.33');
  });

  it('says only "List price" for one seat', () => {
    render(<OrderSummary quote={{ ...quote, listPrice: 149_900 }} couponCode={null} />);
    expect(screen.getByText('List price')).toBeTruthy();
  });
});
