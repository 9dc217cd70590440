import { cleanup, render, screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { useState } from 'react';
import { afterEach, describe, expect, it } from 'vitest';
import type { AdminTool, ToolInput } from '../../../shared/dashboard';
import { ApiError } from '../../lib/api';
import { ToolForm } from './ToolForm';

afterEach(cleanup);

const STORED: AdminTool = {
  id: '0b6f8a52-8f3c-4e0e-9d55-2f1d9a3c1e11',
  name: 'Ledger Lens',
  description: 'Reads ledgers.',
  device: 'Windows',
  pricePaise: 149_900,
  priceCents: 1999,
  comingSoon: false,
  active: true,
  delivery: 'license_key',
  activationLimit: 3,
  licenseModel: 'per-device',
  heartbeatMinutes: 10,
  trialDays: 0,
  updatesMonths: null,
  renewalPricePaise: null,
  renewalPriceCents: null,
  file: null,
  packageId: null,
  defaultPackageId: 'LedgerLens',
  updatedAt: '2026-11-20T10:00:00.000Z',
};

type Answer = (input: ToolInput) => Promise<AdminTool | null>;

/** The screen's part around the form: it keeps the tool as last stored, as ToolEditScreen does. */
function Screen({ tool, onSave }: { tool: AdminTool | null; onSave: Answer }) {
  const [current, setCurrent] = useState(tool);
  return (
    <ToolForm
      tool={current}
      onSave={async (input) => {
        const stored = await onSave(input);
        if (stored) setCurrent(stored);
        return stored;
      }}
    />
  );
}

/** The form as the screen shows it; `answer` stands for the server's reply to a save. */
function showForm(tool: AdminTool | null, answer: Answer) {
  const saved: ToolInput[] = [];
  render(
    <Screen
      tool={tool}
      onSave={(input) => {
        saved.push(input);
        return answer(input);
      }}
    />,
  );
  return saved;
}

const field = (label: RegExp) => screen.getByLabelText(label) as HTMLInputElement;
const describedText = (control: HTMLElement) =>
  (control.getAttribute('aria-describedby') ?? '')
    .split(' ')
    .map((id) => document.getElementById(id)?.textContent)
    .join(' ');

describe('the tool editor', () => {
  it('checks a new tool with the server’s own rules before sending anything', async () => {
    const user = userEvent.setup();
    const saved = showForm(null, async () => null);
    await user.type(field(/^Price in INR/), '12.345');
    await user.click(screen.getByRole('button', { name: 'Add the tool' }));

    const name = field(/^Name/);
    expect(name.getAttribute('aria-invalid')).toBe('true');
    expect(describedText(name)).toContain('Give the tool a name.');
    expect(describedText(screen.getByLabelText(/^Description/))).toContain('Describe the tool.');
    expect(describedText(field(/^Price in INR/))).toContain('At most two decimals (paise or cents).');
    expect(document.activeElement).toBe(name);
    expect(saved).toEqual([]);
  });

  it('sends the typed values, with the authenticator code for a new price, and is busy meanwhile', async () => {
    const user = userEvent.setup();
    let settle: (tool: AdminTool) => void = () => {};
    const saved = showForm(STORED, () => new Promise((resolve) => (settle = resolve)));
    // Unchanged prices need no code.
    expect(screen.queryByLabelText(/prices are changing/)).toBeNull();
    await user.clear(field(/^Price in INR/));
    await user.type(field(/^Price in INR/), '999');
    await user.type(field(/prices are changing/), '123456');
    await user.selectOptions(screen.getByLabelText(/^Delivery/), 'credentials');
    await user.click(screen.getByRole('checkbox', { name: /Coming soon/ }));
    const save = screen.getByRole('button', { name: 'Save changes' });
    await user.click(save);

    expect(saved).toEqual([
      {
        name: 'Ledger Lens',
        description: 'Reads ledgers.',
        device: 'Windows',
        priceINR: '999',
        priceUSD: '19.99',
        comingSoon: true,
        active: true,
        delivery: 'credentials',
        activationLimit: '3',
        licenseModel: 'per-device',
        heartbeatMinutes: '10',
        trialDays: '0',
        packageId: '',
        code: '123456',
      },
    ]);
    // Busy: said to be unavailable, yet focus stays on it (a disabled button would drop focus to the page).
    expect(save.getAttribute('aria-disabled')).toBe('true');
    expect(document.activeElement).toBe(save);
    await user.click(save);
    expect(saved).toHaveLength(1);

    // The form goes on from what was stored: the new price is the saved one, so no code is asked any more.
    settle({ ...STORED, pricePaise: 99_900, comingSoon: true, delivery: 'credentials' });
    await waitFor(() => expect(save.getAttribute('aria-disabled')).toBeNull());
    expect(field(/^Price in INR/).value).toBe('999.00');
    expect(screen.queryByLabelText(/prices are changing/)).toBeNull();
  });

  it('makes a tool floating with a heartbeat interval, checked before sending', async () => {
    const user = userEvent.setup();
    const saved = showForm(STORED, async () => ({
      ...STORED,
      licenseModel: 'floating',
      heartbeatMinutes: 5,
    }));
    // Per device: no interval to give.
    expect(screen.queryByLabelText(/^Heartbeat interval/)).toBeNull();
    await user.selectOptions(screen.getByLabelText(/^License model/), 'floating');
    await user.clear(field(/^Heartbeat interval/));
    await user.type(field(/^Heartbeat interval/), '0');
    await user.click(screen.getByRole('button', { name: 'Save changes' }));
    expect(describedText(field(/^Heartbeat interval/))).toContain(
      'A heartbeat interval in whole minutes from 1 to 1440',
    );
    expect(saved).toEqual([]);

    await user.clear(field(/^Heartbeat interval/));
    await user.type(field(/^Heartbeat interval/), '5');
    await user.click(screen.getByRole('button', { name: 'Save changes' }));
    await waitFor(() => expect(saved).toHaveLength(1));
    expect(saved[0]).toMatchObject({ licenseModel: 'floating', heartbeatMinutes: '5' });
    await waitFor(() => expect(field(/^Heartbeat interval/).value).toBe('5'));
  });

  it('puts the server’s field errors on their fields, with its message for the form', async () => {
    const user = userEvent.setup();
    const refusal = new ApiError(400, {
      code: 'validation_error',
      message: 'That code is not right, or it has been used already. Try the next one.',
      fieldErrors: { code: 'That code is not right, or it has been used already. Try the next one.' },
    });
    showForm(STORED, () => Promise.reject(refusal));
    await user.clear(field(/^Price in USD/));
    await user.type(field(/^Price in USD/), '24.99');
    await user.type(field(/prices are changing/), '000000');
    await user.click(screen.getByRole('button', { name: 'Save changes' }));

    const code = field(/prices are changing/);
    await waitFor(() => expect(code.getAttribute('aria-invalid')).toBe('true'));
    expect(describedText(code)).toContain('That code is not right');
    expect(document.activeElement).toBe(code);
    expect(screen.getByRole('alert').textContent).toContain('That code is not right');
    // What was typed stays, to be corrected rather than typed again.
    expect(field(/^Price in USD/).value).toBe('24.99');
  });
});
