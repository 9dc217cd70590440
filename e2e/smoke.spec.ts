import { expect, type Shop, test } from './fixtures';

test.use({ shopOptions: { name: 'smoke' } });

let shop: Shop;
test.beforeAll(({ shop: started }) => {
  shop = started;
});

test('the home page renders and hydrates without console errors', async ({ page }) => {
  await page.goto(`${shop.url}/`);
  await expect(page.locator('h1').first()).toBeVisible();
  await page.waitForLoadState('networkidle');
});

test('the files every page links to in its head are served', async ({ request }) => {
  const html = await (await request.get(`${shop.url}/`)).text();
  const ogImage = /<meta property="og:image" content="([^"]+)"/.exec(html)?.[1];
  expect(ogImage).toBeTruthy();
  for (const path of [new URL(ogImage ?? '/').pathname, '/favicon.svg', '/robots.txt', '/sitemap.xml']) {
    const response = await request.get(`${shop.url}${path}`);
    expect(response.status(), path).toBe(200);
  }
  expect(await (await request.get(`${shop.url}/sitemap.xml`)).text()).toContain('/PrivacyPolicy</loc>');
});
