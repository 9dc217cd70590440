import { cleanup, render, screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, describe, expect, it } from 'vitest';
import { ANNOUNCER_ID } from '../../lib/announce';
import { Button } from './buttons';
import { FormError } from './Notice';
import { useAction } from './useAction';

afterEach(cleanup);

function Disable({ action }: { action: () => Promise<unknown> }) {
  const { run, busy, error, clear } = useAction((failure) => `Not disabled: ${(failure as Error).message}`);
  return (
    <>
      <div id={ANNOUNCER_ID} />
      <Button busy={busy} onClick={() => run(action)}>
        Disable
      </Button>
      <Button variant="secondary" onClick={clear}>
        Dismiss
      </Button>
      <FormError message={error} />
    </>
  );
}

describe('useAction', () => {
  it('runs once while busy and says what it did through the live region', async () => {
    let calls = 0;
    let finish = () => {};
    render(
      <Disable
        action={() => {
          calls += 1;
          return new Promise<string>((resolve) => {
            finish = () => resolve('Coupon DIWALI is disabled.');
          });
        }}
      />,
    );
    const button = screen.getByRole('button', { name: /Disable/ });
    await userEvent.click(button);
    await userEvent.click(button);
    expect(calls).toBe(1);
    finish();
    await waitFor(() =>
      expect(document.getElementById(ANNOUNCER_ID)?.textContent).toBe('Coupon DIWALI is disabled.'),
    );
    expect(screen.queryByRole('alert')).toBeNull();
  });

  it('shows a failure in the words given, and clear takes it away', async () => {
    render(<Disable action={() => Promise.reject(new Error('the code is wrong'))} />);
    await userEvent.click(screen.getByRole('button', { name: /Disable/ }));
    expect((await screen.findByRole('alert')).textContent).toBe('Not disabled: the code is wrong');
    await userEvent.click(screen.getByRole('button', { name: 'Dismiss' }));
    expect(screen.queryByRole('alert')).toBeNull();
  });
});
