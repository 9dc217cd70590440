import { describe, expect, it } from 'vitest';
import { ORDER_EVENT_KINDS, ORDER_EVENT_LABELS, orderEventFacts } from './orders';

describe('order events for people', () => {
  it('names every kind of event', () => {
    for (const kind of ORDER_EVENT_KINDS) expect(ORDER_EVENT_LABELS[kind]).toMatch(/^[A-Z]/);
  });

  it('labels a refund’s facts, formats its amount in its currency and leaves out the empty ones', () => {
    const facts = orderEventFacts(
      {
        source: 'dashboard',
        paymentId: 'pay_Q1w2E3r4T5y6U7',
        refundId: 'rfnd_A1b2C3',
        amount: 149900,
        currency: 'INR',
        reason: 'Bought the wrong edition',
        refundedEarlier: false,
        purchaseId: null,
        downloadLinksRevoked: 2,
      },
      'USD',
    );
    expect(facts).toEqual([
      { label: 'By', value: 'the dashboard' },
      { label: 'Amount', value: '₹1,499.00' },
      { label: 'Reason', value: 'Bought the wrong edition' },
      { label: 'Payment', value: 'pay_Q1w2E3r4T5y6U7' },
      { label: 'Refund', value: 'rfnd_A1b2C3' },
      { label: 'Already refunded at Razorpay', value: 'no' },
      { label: 'Download links revoked', value: '2' },
    ]);
  });

  it('takes the order’s currency when the event names none, shows a paid amount as money and names unknown facts', () => {
    expect(
      orderEventFacts(
        {
          amount: 799,
          paid: { amount: 500, currency: 'USD' },
          settlementBatch: 'b-7',
          source: 'smoke-signal',
        },
        'USD',
      ),
    ).toEqual([
      { label: 'By', value: 'smoke-signal' },
      { label: 'Amount', value: '$7.99' },
      { label: 'Paid', value: '$5.00' },
      { label: 'Settlement batch', value: 'b-7' },
    ]);
    expect(orderEventFacts(null, 'INR')).toEqual([]);
    expect(orderEventFacts(['not', 'facts'], 'INR')).toEqual([]);
  });
});
