import { expect, test } from '@playwright/test';
import { type RunningServer, startServer } from './support/server';

let server: RunningServer;
test.beforeAll(async () => {
  server = await startServer();
});
test.afterAll(async () => {
  await server.stop();
});

test('the home page renders and hydrates without console errors', async ({ page }) => {
  const errors: string[] = [];
  page.on('console', (message) => {
    if (message.type() === 'error') errors.push(message.text());
  });
  page.on('pageerror', (error) => errors.push(error.message));
  await page.goto(`${server.url}/`);
  await expect(page.locator('h1').first()).toBeVisible();
  await page.waitForLoadState('networkidle');
  expect(errors).toEqual([]);
});

test('the files every page links to in its head are served', async ({ request }) => {
  const html = await (await request.get(`${server.url}/`)).text();
  const ogImage = /<meta property="og:image" content="([^"]+)"/.exec(html)?.[1];
  expect(ogImage).toBeTruthy();
  for (const path of [new URL(ogImage ?? '/').pathname, '/favicon.svg', '/robots.txt', '/sitemap.xml']) {
    const response = await request.get(`${server.url}${path}`);
    expect(response.status(), path).toBe(200);
  }
  expect(await (await request.get(`${server.url}/sitemap.xml`)).text()).toContain('/PrivacyPolicy</loc>');
});
