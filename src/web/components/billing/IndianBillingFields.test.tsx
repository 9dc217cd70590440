import { cleanup, render, screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { useState } from 'react';
import { afterEach, describe, expect, it } from 'vitest';
import { IndianBillingFields } from './IndianBillingFields';

afterEach(cleanup);

/** The fields with their own state, as a form keeps them; `errors` as the form would show them. */
function Fields({ checkout, errors = {} }: { checkout?: boolean; errors?: { state?: string } }) {
  const [values, setValues] = useState({ address: '', state: '', gstin: '' });
  return (
    <form>
      <IndianBillingFields
        idOf={(field) => `billing-${field}`}
        values={values}
        errors={errors}
        set={(field, value) => setValues((current) => ({ ...current, [field]: value }))}
        checkout={checkout}
      />
      <output data-testid="values">{JSON.stringify(values)}</output>
    </form>
  );
}

describe('the Indian billing fields', () => {
  it('name each control by its field, and what is typed or chosen reaches the form', async () => {
    const user = userEvent.setup();
    render(<Fields />);
    const address = screen.getByLabelText(/^Address/);
    expect(address.id).toBe('billing-address');
    expect(address.getAttribute('rows')).toBe('3');
    expect(screen.getByLabelText(/^State/).id).toBe('billing-state');
    expect(screen.getByLabelText(/^GSTIN/).id).toBe('billing-gstin');
    // The example does not look like a number already filled in: marked "e.g.", not drawn in capitals.
    expect(screen.getByLabelText(/^GSTIN/).getAttribute('placeholder')).toBe('e.g. 08ABCDE1234F1Z0');
    expect(screen.getByLabelText(/^GSTIN/).className).toContain('placeholder:normal-case');
    // The correction of an issued invoice asks no country.
    expect(screen.queryByLabelText(/^Country/)).toBeNull();

    await user.type(address, '3rd Floor, MI Road');
    await user.selectOptions(screen.getByLabelText(/^State/), 'Rajasthan');
    await user.type(screen.getByLabelText(/^GSTIN/), '08ABCDE1234F1Z0');
    expect(JSON.parse(screen.getByTestId('values').textContent ?? '')).toEqual({
      address: '3rd Floor, MI Road',
      state: 'Rajasthan',
      gstin: '08ABCDE1234F1Z0',
    });
  });

  it('at checkout: a two-line address and India, fixed, beside the state; a message marks its control', () => {
    render(<Fields checkout errors={{ state: 'Select a state.' }} />);
    expect(screen.getByLabelText(/^Address/).getAttribute('rows')).toBe('2');
    const country = screen.getByLabelText(/^Country/) as HTMLInputElement;
    expect(country.id).toBe('billing-country');
    expect(country.value).toBe('India');
    expect(country.readOnly).toBe(true);
    const state = screen.getByLabelText(/^State/);
    expect(state.getAttribute('aria-invalid')).toBe('true');
    expect(state.closest('.grid')?.contains(country)).toBe(true);
  });
});
