import { defineConfig } from '@playwright/test';

/**
 * Browser journeys in Debian's Chromium (never a downloaded browser). Each spec file gets a worker, and so a shop (server,
 * mail sink, command line), of its own through e2e/fixtures.ts; files are isolated that way, so two workers run two
 * files side by side (E2E_WORKERS=1 runs them one at a time, e.g. to read a failing journey's log in order).
 */
export default defineConfig({
  testDir: 'e2e',
  testMatch: '**/*.spec.ts',
  fullyParallel: false,
  workers: Number(process.env.E2E_WORKERS ?? 2),
  retries: 0,
  timeout: 90_000,
  expect: { timeout: 10_000 },
  reporter: [['list'], ['json']],
  outputDir: 'test-results',
  use: {
    browserName: 'chromium',
    launchOptions: {
      executablePath: process.env.CHROME_PATH ?? '/usr/bin/chromium',
      args: [
        '--headless=new',
        '--no-sandbox',
        '--disable-gpu',
        '--disable-background-networking',
        '--disable-component-update',
        '--disable-sync',
        '--no-first-run',
        '--disable-quic',
      ],
    },
    // A failed journey keeps its trace (each action's DOM, the network, the console) but not its screencast: the
    // frames Chromium paints and sends for every test cost a quarter of the journeys' CPU (e2e/home.spec.ts: 76
    // CPU-seconds with them, 55 without), and the screenshot at the failure is kept below.
    trace: { mode: 'retain-on-failure', screenshots: false },
    screenshot: 'only-on-failure',
  },
});
