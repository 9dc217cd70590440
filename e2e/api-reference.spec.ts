import { expect, type Shop, test } from './fixtures';
import { checkScreen } from './support/check-screen';

test.use({ shopOptions: { name: 'api-reference' } });

let shop: Shop;
test.beforeAll(({ shop: started }) => {
  shop = started;
});

test('the API reference renders the OpenAPI document with nothing from another host', async ({ page }) => {
  const requests: string[] = [];
  page.on('request', (request) => requests.push(request.url()));

  await page.goto(`${shop.url}/api-reference`);
  await expect(page.getByRole('heading', { level: 1, name: 'API reference' })).toBeVisible();
  // RapiDoc draws inside its shadow root, which Playwright's locators pierce.
  await expect(page.getByText('Check a license on an activated machine').first()).toBeVisible();
  await page.waitForLoadState('networkidle');
  await checkScreen(page, 'api-reference', { fullPage: false });

  expect(requests).toContain(`${shop.url}/api/openapi.json`);
  const elsewhere = requests.filter(
    (url) => !url.startsWith(`${shop.url}/`) && !url.startsWith('data:') && !url.startsWith('blob:'),
  );
  expect(elsewhere).toEqual([]);
});

test('the reference code is loaded only on its page', async ({ page }) => {
  const scripts: string[] = [];
  page.on('request', (request) => {
    if (request.resourceType() === 'script') scripts.push(request.url());
  });
  await page.goto(`${shop.url}/utility-tools`);
  await page.waitForLoadState('networkidle');
  expect(scripts.filter((url) => url.includes('rapidoc'))).toEqual([]);
});
