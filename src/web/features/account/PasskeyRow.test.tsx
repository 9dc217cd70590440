import { cleanup, render, screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, describe, expect, it } from 'vitest';
import { PasskeyRow } from './PasskeyRow';

afterEach(cleanup);

const passkey = {
  id: 'pk-1',
  name: 'Work laptop',
  createdAt: '2026-11-02T10:00:00.000Z',
  lastUsedAt: null,
  synced: false,
};

describe('PasskeyRow', () => {
  it('cancels a rename with Escape: the name unchanged, focus back on its Rename button', async () => {
    const user = userEvent.setup();
    render(
      <ul>
        <PasskeyRow passkey={passkey} onChanged={() => undefined} />
      </ul>,
    );
    await user.click(screen.getByRole('button', { name: 'Rename Work laptop' }));
    const field = screen.getByRole('textbox', { name: /Passkey Name/ });
    expect(document.activeElement).toBe(field);
    await user.type(field, ' (old)');
    await user.keyboard('{Escape}');
    expect(screen.queryByRole('textbox', { name: /Passkey Name/ })).toBeNull();
    expect(screen.getByText('Work laptop')).toBeTruthy();
    await waitFor(() =>
      expect(document.activeElement).toBe(screen.getByRole('button', { name: 'Rename Work laptop' })),
    );
  });
});
