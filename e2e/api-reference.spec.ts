import { expect, test } from '@playwright/test';
import { checkScreen } from './support/check-screen';
import { type RunningServer, startServer } from './support/server';

let server: RunningServer;
test.beforeAll(async () => {
  server = await startServer();
});
test.afterAll(async () => {
  await server.stop();
});

test('the API reference renders the OpenAPI document with nothing from another host', async ({ page }) => {
  const requests: string[] = [];
  const errors: string[] = [];
  page.on('request', (request) => requests.push(request.url()));
  page.on('console', (message) => {
    if (message.type() === 'error') errors.push(message.text());
  });
  page.on('pageerror', (error) => errors.push(error.message));

  await page.goto(`${server.url}/api-reference`);
  await expect(page.getByRole('heading', { level: 1, name: 'API reference' })).toBeVisible();
  // RapiDoc draws inside its shadow root, which Playwright's locators pierce.
  await expect(page.getByText('Check a license on an activated machine').first()).toBeVisible();
  await page.waitForLoadState('networkidle');
  await checkScreen(page, 'api-reference', { fullPage: false });

  expect(requests).toContain(`${server.url}/api/openapi.json`);
  const elsewhere = requests.filter(
    (url) => !url.startsWith(`${server.url}/`) && !url.startsWith('data:') && !url.startsWith('blob:'),
  );
  expect(elsewhere).toEqual([]);
  expect(errors).toEqual([]);
});

test('the reference code is loaded only on its page', async ({ page }) => {
  const scripts: string[] = [];
  page.on('request', (request) => {
    if (request.resourceType() === 'script') scripts.push(request.url());
  });
  await page.goto(`${server.url}/utility-tools`);
  await page.waitForLoadState('networkidle');
  expect(scripts.filter((url) => url.includes('rapidoc'))).toEqual([]);
});
