import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { expect, type Shop, test } from './fixtures';
import { virtualAuthenticator } from './support/authenticator';
import { checkScreen } from './support/check-screen';

/**
 * Sudo mode on the account page (issue 50): ten minutes after signing in (the server's clock moved by libfaketime),
 * changing the email asks for the password inline and then sends the code as asked; removing a passkey asks again
 * and is confirmed with the passkey itself, through Chromium's virtual authenticator.
 */

const FAKETIME_LIBRARY = '/usr/lib/x86_64-linux-gnu/faketime/libfaketimeMT.so.1';
/** The server's clock: libfaketime reads its offset from this file (written before the server starts). */
const offsetFile = path.join(mkdtempSync(path.join(tmpdir(), 'reauth-clock-')), 'offset');
writeFileSync(offsetFile, '+0');

test.use({
  shopOptions: {
    name: 'reauth',
    env: {
      LD_PRELOAD: FAKETIME_LIBRARY,
      FAKETIME_TIMESTAMP_FILE: offsetFile,
      FAKETIME_DONT_FAKE_MONOTONIC: '1',
      FAKETIME_CACHE_DURATION: '1',
    },
  },
  // The browser logs the answers the journey asked for: the 403s that open the prompts, the wrong password's 400.
  consoleAllowed: /status of (403|400)/,
});

let shop: Shop;
test.beforeAll(({ shop: started }) => {
  shop = started;
});

/** Moves the server's clock `minutes` ahead of now and waits until its Date header shows it. */
async function moveServerClock(minutes: number): Promise<void> {
  writeFileSync(offsetFile, `+${minutes * 60}`);
  const deadline = Date.now() + 30_000;
  for (;;) {
    const answered = await fetch(`${shop.url}/api/health`);
    if (Date.parse(answered.headers.get('date') ?? '') > Date.now() + (minutes - 1) * 60_000) return;
    if (Date.now() > deadline) throw new Error(`the server's clock did not move ${minutes} minutes`);
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
}

test('a risky change asks to confirm it is you, by password or by passkey, and then carries on', async ({
  page,
  buyer,
}) => {
  const { email, password: PASSWORD } = buyer;
  await page.goto(`${shop.url}/account`);
  await expect(page.getByRole('heading', { level: 1, name: 'Account' })).toBeVisible();
  const authenticator = await virtualAuthenticator(page);

  // Eleven minutes after signing in the email change asks for the password, inline, then sends the code. The
  // account has no passkey yet: the prompt offers none (issue 63).
  await moveServerClock(11);
  const emailSection = page.getByRole('region', { name: 'Email' });
  const newAddress = `moved.${email}`;
  await emailSection.getByLabel('New Email').fill(newAddress);
  await emailSection.getByRole('button', { name: 'Send Code' }).click();
  const prompt = emailSection.getByRole('region', { name: 'Confirm it’s you' });
  await expect(prompt).toBeVisible();
  await expect(prompt.getByLabel('Password', { exact: true })).toBeFocused();
  await checkScreen(page, 'account-reauth', { noHorizontalScroll: true });
  await expect(prompt.getByRole('button', { name: 'Use a passkey' })).toHaveCount(0);
  await prompt.getByLabel('Password', { exact: true }).fill('not the password');
  await prompt.getByRole('button', { name: 'Confirm' }).click();
  await expect(prompt.getByText('That password is not right.')).toBeVisible();
  await prompt.getByLabel('Password', { exact: true }).fill(PASSWORD);
  await prompt.getByRole('button', { name: 'Confirm' }).click();
  await expect(emailSection.getByText(`If ${newAddress} can receive mail`)).toBeVisible();
  await expect(prompt).toBeHidden();

  // Just confirmed: adding a passkey asks nothing more.
  const passkeys = page.getByRole('region', { name: 'Passkeys' });
  await passkeys.getByLabel('Passkey Name').fill('Test laptop');
  await passkeys.getByRole('button', { name: 'Add a passkey' }).click();
  await expect(passkeys.getByText('Test laptop', { exact: true })).toBeVisible();

  // Another eleven minutes: removing the passkey asks again, and the passkey itself confirms it.
  await moveServerClock(22);
  await passkeys.getByRole('button', { name: 'Remove Test laptop' }).click();
  const again = passkeys.getByRole('region', { name: 'Confirm it’s you' });
  await expect(again).toBeVisible();
  await again.getByRole('button', { name: 'Use a passkey' }).click();
  await expect(passkeys.getByText('You have no passkeys yet.')).toBeVisible({ timeout: 15_000 });
  const { credentials } = await authenticator.cdp.send('WebAuthn.getCredentials', {
    authenticatorId: authenticator.authenticatorId,
  });
  expect(credentials).toHaveLength(1);
});
