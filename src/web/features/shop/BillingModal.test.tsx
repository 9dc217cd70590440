import { cleanup, render, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, describe, expect, it } from 'vitest';
import { BILLING_MESSAGES } from '../../../shared/billing';
import { SHOP_MESSAGES } from '../../../shared/shop';
import { ApiError } from '../../lib/api';
import { type BillingDraft, BillingModal } from './BillingModal';

const MESSAGES = BILLING_MESSAGES;

afterEach(cleanup);

type Sent = { billing: unknown; draft: BillingDraft };

/** The dialog as the catalogue opens it; `answer` stands for the server's reply to the payment it starts. */
function openBilling(
  currency: 'INR' | 'USD',
  answer: () => Promise<void> = async () => {},
  draft?: BillingDraft,
) {
  const sent: Sent[] = [];
  render(
    <BillingModal
      open
      currency={currency}
      summary="PDF Utility Toolkit (Windows) ₹1,499.00"
      draft={draft}
      onCancel={() => {}}
      onSubmit={(billing, typed) => {
        sent.push({ billing, draft: typed });
        return answer();
      }}
    />,
  );
  const dialog = screen.getByRole('dialog', {
    name: currency === 'INR' ? 'Billing Information' : /International/,
  });
  return { dialog: within(dialog), sent };
}

describe('the billing dialog', () => {
  it('draws Cancel and Proceed to Payment in the order Tab reaches them, at every width', () => {
    const { dialog } = openBilling('INR');
    const cancel = dialog.getByRole('button', { name: 'Cancel' });
    const proceed = dialog.getByRole('button', { name: 'Proceed to Payment' });
    expect(cancel.compareDocumentPosition(proceed) & Node.DOCUMENT_POSITION_FOLLOWING).toBeTruthy();
    // No reversed flex order anywhere above them: what comes first in the document is drawn first (issue 53).
    for (let node = cancel.parentElement; node; node = node.parentElement) {
      expect(node.className).not.toMatch(/(^|\s)([a-z]+:)?flex-(col|row)-reverse/);
    }
  });

  it('shows the shared rule’s messages on their fields, focuses the first and sends nothing', async () => {
    const user = userEvent.setup();
    const { dialog, sent } = openBilling('INR');
    await user.click(dialog.getByRole('button', { name: 'Proceed to Payment' }));

    const address = dialog.getByLabelText(/Address/);
    expect(address.getAttribute('aria-invalid')).toBe('true');
    expect(dialog.getByText(MESSAGES.addressRequired).id).toBe(
      address.getAttribute('aria-describedby')?.split(' ').at(-1),
    );
    expect(dialog.getByText(MESSAGES.stateRequired)).toBeTruthy();
    expect(document.activeElement).toBe(address);
    expect(sent).toEqual([]);

    // Typing in a field clears its message, and only its own.
    await user.type(address, '14 Civil Lines');
    expect(dialog.queryByText(MESSAGES.addressRequired)).toBeNull();
    expect(dialog.getByText(MESSAGES.stateRequired)).toBeTruthy();
  });

  it('says prices include GST for an INR order, and asks the state without calling it invalid untouched', () => {
    const { dialog } = openBilling('INR');
    expect(dialog.getByText('Prices include GST.')).toBeTruthy();
    const state = dialog.getByLabelText(/State/);
    expect(state.getAttribute('aria-required')).toBe('true');
    expect(state.hasAttribute('required')).toBe(false);
    expect(state.getAttribute('aria-invalid')).toBeNull();
  });

  it('sends the details as the order takes them, and as typed, while the button is busy', async () => {
    const user = userEvent.setup();
    let settle: () => void = () => {};
    const { dialog, sent } = openBilling('INR', () => new Promise<void>((resolve) => (settle = resolve)));
    await user.type(dialog.getByLabelText(/Address/), '  14 Civil Lines, Ajmer Road ');
    await user.selectOptions(dialog.getByLabelText(/State/), 'Rajasthan');
    await user.type(dialog.getByLabelText(/GSTIN/), '08abcde1234f1z0');
    const proceed = dialog.getByRole('button', { name: 'Proceed to Payment' });
    await user.click(proceed);

    expect(sent).toEqual([
      {
        billing: {
          address: '14 Civil Lines, Ajmer Road',
          state: 'Rajasthan',
          country: 'India',
          gstin: '08ABCDE1234F1Z0',
          currency: 'INR',
        },
        draft: {
          address: '  14 Civil Lines, Ajmer Road ',
          state: 'Rajasthan',
          country: '',
          gstin: '08abcde1234f1z0',
          couponCode: '',
        },
      },
    ]);
    // Busy: said to be unavailable, yet focus stays on it (a disabled button would drop focus to the page).
    expect(proceed.getAttribute('aria-disabled')).toBe('true');
    expect(document.activeElement).toBe(proceed);
    // A second press while the payment starts sends nothing more.
    await user.click(proceed);
    expect(sent).toHaveLength(1);
    settle();
    await screen.findByRole('button', { name: 'Proceed to Payment' });
    await waitFor(() => expect(proceed.getAttribute('aria-disabled')).toBeNull());
  });

  it('puts the server’s field errors on their fields and keeps what was typed', async () => {
    const user = userEvent.setup();
    const refusal = new ApiError(400, {
      code: 'validation_error',
      message: MESSAGES.gstinStateMismatch,
      // As POST /api/create-payment/ names them: the billing fields sit under billingDetails.
      fieldErrors: { 'billingDetails.gstin': MESSAGES.gstinStateMismatch, toolId: 'Unknown tool' },
    });
    const { dialog } = openBilling('INR', () => Promise.reject(refusal), {
      address: '14 Civil Lines',
      state: 'Rajasthan',
      country: '',
      gstin: '08ABCDE1234F1Z0',
    });
    expect((dialog.getByLabelText(/Address/) as HTMLTextAreaElement).value).toBe('14 Civil Lines');
    await user.click(dialog.getByRole('button', { name: 'Proceed to Payment' }));

    const gstin = dialog.getByLabelText(/GSTIN/);
    await waitFor(() => expect(gstin.getAttribute('aria-invalid')).toBe('true'));
    expect(dialog.getByText(MESSAGES.gstinStateMismatch)).toBeTruthy();
    expect(document.activeElement).toBe(gstin);
    expect((dialog.getByLabelText(/Address/) as HTMLTextAreaElement).value).toBe('14 Civil Lines');
  });

  it('shows a failure that names no field in the dialog itself', async () => {
    const user = userEvent.setup();
    const { dialog } = openBilling('USD', () => Promise.reject(new TypeError('Failed to fetch')));
    await user.selectOptions(dialog.getByLabelText(/Country/), 'Germany');
    await user.click(dialog.getByRole('button', { name: 'Proceed to Payment' }));
    expect((await dialog.findByRole('alert')).textContent).toBe(SHOP_MESSAGES.purchase.createFailed);
  });
});
