import { cleanup, render, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, describe, expect, it } from 'vitest';
import { BILLING_MESSAGES } from '../../../shared/billing';
import type { ToolEditionView } from '../../../shared/editions';
import { SEATS_MESSAGE } from '../../../shared/seats';
import { SHOP_MESSAGES } from '../../../shared/shop';
import { ApiError } from '../../lib/api';
import type { BillingDraft } from '../../lib/purchase-intent';
import { BillingModal, billingTitle } from './BillingModal';
import type { OrderChoice } from './types';

const MESSAGES = BILLING_MESSAGES;

afterEach(cleanup);

type Sent = { billing: unknown; draft: BillingDraft; order?: OrderChoice };

/** The dialog as the catalogue opens it; `answer` stands for the server's reply to the payment it starts. */
function openBilling(
  currency: 'INR' | 'USD',
  answer: () => Promise<void> = async () => {},
  draft?: BillingDraft,
  addSeatsTo?: number,
) {
  const sent: Sent[] = [];
  render(
    <BillingModal
      open
      currency={currency}
      summary="PDF Utility Toolkit (Windows) ₹1,499.00"
      draft={draft}
      addSeatsTo={addSeatsTo}
      onCancel={() => {}}
      onSubmit={(billing, typed, order) => {
        sent.push({ billing, draft: typed, order });
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
          seats: '1',
          // Not deducting TDS (issue 68): the box unticked, no PAN typed.
          tds: false,
          pan: '',
        },
        order: { seats: 1 },
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

describe('the number of seats', () => {
  const filled: BillingDraft = { address: '14 Civil Lines', state: 'Rajasthan', country: '', gstin: '' };

  it('is one unless the buyer says otherwise, and a number from 1 to 50', () => {
    const { dialog } = openBilling('INR');
    const seats = dialog.getByLabelText(/^Seats/) as HTMLInputElement;
    expect(seats.value).toBe('1');
    expect(seats.type).toBe('number');
    expect(seats.min).toBe('1');
    expect(seats.max).toBe('50');
    // Its hint says what more than one seat means, tied to the field.
    const hint = dialog.getByText(/more make a team/);
    expect(seats.getAttribute('aria-describedby')).toContain(hint.id);
  });

  it('refuses 0, 51 and 2.5 on its field, focuses it and sends nothing', async () => {
    const user = userEvent.setup();
    const { dialog, sent } = openBilling('INR', undefined, filled);
    const seats = dialog.getByLabelText(/^Seats/);
    for (const typed of ['0', '51', '2.5']) {
      await user.clear(seats);
      await user.type(seats, typed);
      await user.click(dialog.getByRole('button', { name: /^Proceed to Payment/ }));
      expect(dialog.getByText(SEATS_MESSAGE)).toBeTruthy();
      expect(seats.getAttribute('aria-invalid')).toBe('true');
      expect(document.activeElement).toBe(seats);
    }
    expect(sent).toEqual([]);
    // Typing a good number clears the message.
    await user.clear(seats);
    await user.type(seats, '5');
    expect(dialog.queryByText(SEATS_MESSAGE)).toBeNull();
  });

  it('sends the seats with the order and keeps them as typed for the next attempt', async () => {
    const user = userEvent.setup();
    const { dialog, sent } = openBilling('INR', undefined, filled);
    const seats = dialog.getByLabelText(/^Seats/);
    await user.clear(seats);
    await user.type(seats, '5');
    await user.click(dialog.getByRole('button', { name: /^Proceed to Payment/ }));
    expect(sent).toHaveLength(1);
    expect(sent[0]?.order).toEqual({ seats: 5 });
    expect(sent[0]?.draft.seats).toBe('5');
  });

  it('starts from the seats of a checkout that failed, was closed or reloaded', () => {
    const { dialog } = openBilling('INR', undefined, { ...filled, seats: '7' });
    expect((dialog.getByLabelText(/^Seats/) as HTMLInputElement).value).toBe('7');
  });

  it('asks how many seats to add to a team, saying how many it has', () => {
    const { dialog } = openBilling('INR', undefined, filled, 5);
    const seats = dialog.getByLabelText(/^Seats to add/) as HTMLInputElement;
    expect(seats.value).toBe('1');
    expect(dialog.getByText(/Your team has 5 seats/)).toBeTruthy();
  });

  it('puts the server’s refusal of the seats on their field', async () => {
    const user = userEvent.setup();
    const refusal = new ApiError(400, {
      code: 'validation_error',
      message: SEATS_MESSAGE,
      fieldErrors: { seats: SEATS_MESSAGE },
    });
    const { dialog } = openBilling('INR', () => Promise.reject(refusal), filled, 48);
    await user.click(dialog.getByRole('button', { name: /^Proceed to Payment/ }));
    const seats = dialog.getByLabelText(/^Seats to add/);
    await waitFor(() => expect(seats.getAttribute('aria-invalid')).toBe('true'));
    expect(dialog.getByText(SEATS_MESSAGE)).toBeTruthy();
    expect(document.activeElement).toBe(seats);
    // Not also said as the form's own failure.
    expect(dialog.queryByText(SHOP_MESSAGES.purchase.createFailed)).toBeNull();
  });
});

describe('the edition of a tool with editions', () => {
  const editions: ToolEditionView[] = [
    { id: 'standard', name: 'Standard', priceInr: 1499, priceUsd: 19, entitlements: [], deviceLimit: 2 },
    { id: 'pro', name: 'Pro', priceInr: 2999, priceUsd: 39, entitlements: ['ocr', 'batch'], deviceLimit: 3 },
  ];
  const filled: BillingDraft = { address: '14 Civil Lines', state: 'Rajasthan', country: '', gstin: '' };

  function openWithEditions(draft: BillingDraft = filled) {
    const sent: Sent[] = [];
    render(
      <BillingModal
        open
        currency="INR"
        editions={editions}
        summary={(edition) => `PDF Tool (Windows) — ${edition?.name}`}
        draft={draft}
        onCancel={() => {}}
        onSubmit={async (billing, typed, order) => {
          sent.push({ billing, draft: typed, order });
        }}
      />,
    );
    return { dialog: within(screen.getByRole('dialog', { name: 'Billing Information' })), sent };
  }

  it('is a radio group of the editions with their prices and what they give, the lowest chosen', () => {
    const { dialog } = openWithEditions();
    const group = dialog.getByRole('group', { name: 'Edition' });
    const radios = within(group).getAllByRole('radio') as HTMLInputElement[];
    expect(radios.map((radio) => radio.checked)).toEqual([true, false]);
    expect(
      within(group).getByRole('radio', { name: /Pro.*Up to 3 devices · ocr, batch.*₹2,999\.00/ }),
    ).toBeTruthy();
    expect(dialog.getByText('PDF Tool (Windows) — Standard')).toBeTruthy();
  });

  it('follows the choice in the summary, sends the edition chosen and keeps it for the next attempt', async () => {
    const user = userEvent.setup();
    const { dialog, sent } = openWithEditions();
    const standard = dialog.getByRole('radio', { name: /^Standard/ });
    standard.focus();
    // Arrow keys move the choice, as in any radio group.
    await user.keyboard('{ArrowDown}');
    expect((dialog.getByRole('radio', { name: /^Pro/ }) as HTMLInputElement).checked).toBe(true);
    expect(dialog.getByText('PDF Tool (Windows) — Pro')).toBeTruthy();
    await user.click(dialog.getByRole('button', { name: /^Proceed to Payment/ }));
    expect(sent).toHaveLength(1);
    expect(sent[0]?.order).toEqual({ seats: 1, editionId: 'pro' });
    expect(sent[0]?.draft.editionId).toBe('pro');
  });

  it('starts from the edition chosen last time, and from the lowest when that one is not the tool’s', () => {
    openWithEditions({ ...filled, editionId: 'pro' });
    expect((screen.getByRole('radio', { name: /^Pro/ }) as HTMLInputElement).checked).toBe(true);
    cleanup();
    openWithEditions({ ...filled, editionId: 'another-tools-edition' });
    expect((screen.getByRole('radio', { name: /^Standard/ }) as HTMLInputElement).checked).toBe(true);
  });
});

describe('billing modal title', () => {
  it('marks every non-INR order as international', () => {
    expect(billingTitle('INR')).toBe('Billing Information');
    expect(billingTitle('USD')).toBe('Billing Information (International Order)');
  });
});
