import { cleanup, render, screen } from '@testing-library/react';
import { afterEach, describe, expect, it } from 'vitest';
import { LoginDialog } from './LoginDialog';

afterEach(cleanup);

const open = (reason?: string) =>
  render(
    <LoginDialog
      open
      reason={reason}
      onClose={() => {}}
      onSignup={() => {}}
      onLoggedIn={() => {}}
      returnFocus={() => null}
    />,
  );

describe('the Login dialog', () => {
  it('says why it is open as its description, read with its name', () => {
    open('Sign in to open your account settings.');
    const dialog = screen.getByRole('dialog', { name: 'Welcome Back' });
    const described = document.getElementById(dialog.getAttribute('aria-describedby') ?? '');
    expect(described?.textContent).toBe('Sign in to open your account settings.');
  });

  it('without a reason of its own, says the default one', () => {
    open();
    const dialog = screen.getByRole('dialog', { name: 'Welcome Back' });
    const described = document.getElementById(dialog.getAttribute('aria-describedby') ?? '');
    expect(described?.textContent).toBe('Sign in to buy tools and see the ones you own.');
  });
});
