import { mkdirSync } from 'node:fs';
import path from 'node:path';
import {
  type APIRequestContext,
  type BrowserContext,
  type BrowserContextOptions,
  test as base,
  expect,
  type Page,
  request as playwrightRequest,
} from '@playwright/test';
import type { CliRun } from '../test/support/processes';
import { type ReceivedMail, TestSmtpServer } from '../test/support/smtp';
import { operatorCli, type RunningServer, startServer } from './support/server';

export { expect };

/**
 * The journeys' scaffolding, once (docs/decisions/053-house-layout.md): a shop (the site's server on a fresh
 * embedded database, the SMTP mail sink and the operator's command line, all torn down), pages that fail the test on
 * a console error or an uncaught exception, a signed-up buyer, and one screenshot helper.
 *
 * A spec that uses the shop names it once with `test.use({ shopOptions: { name: '…' } })`: a worker-scoped option set
 * in a file gives that file a worker, and so a shop, of its own (no journey sees another's accounts). A file without
 * one fails (`shopGuard`) rather than use a shop another file started.
 */

export type Person = { name: string; email: string; phone: string; password: string };

export type Shop = {
  /** http://localhost:PORT, as a visitor's browser reaches the site. */
  url: string;
  /** The server's PGlite DATA_DIR (the command line runs on it). */
  dataDir: string;
  server: RunningServer;
  /** Every email the site sent. */
  smtp: TestSmtpServer;
  /** `npm run admin -- …` beside the running server. */
  admin: (...args: string[]) => Promise<CliRun>;
  /** Signs `person` up through the real calls (code read from the email); signed in within `request` when given. */
  signUp: (person: Person & Record<string, string>, request?: APIRequestContext) => Promise<void>;
  /** The newest email to `to` with this subject, waiting for it (and for more than `after` such emails). */
  mailTo: (to: string, subject: string, after?: number) => Promise<ReceivedMail>;
  /** The code of `digits` digits on a line of its own in the newest such email. */
  codeIn: (to: string, subject: string, digits: number, after?: number) => Promise<string>;
};

export type ShopOptions = { name: string; env?: Record<string, string> };

/** What the browser said while a test ran: console lines at error (and warning) level and uncaught exceptions. */
type Problem = { level: 'error' | 'warning'; text: string };

export type ConsoleWatch = {
  /** Records `page`'s console errors, warnings and exceptions from now on. */
  watch(page: Page): void;
  /** This test's problems so far, as `text (url)` lines; `allow` ones are left out. */
  errors(): string[];
  /** Lets lines matching `pattern` pass for the rest of this test (an answer the test itself provoked). */
  allow(pattern: RegExp): void;
};

type WorkerFixtures = {
  shopOptions: ShopOptions;
  shop: Shop;
  /** Problems recorded on every watched page of this worker, taken by each test as it ends; the pages watched. */
  recorded: Recorded;
  /** A page in a browser context of its own that lives as long as the spec file (serial journeys), watched. */
  openPage: (options?: BrowserContextOptions) => Promise<Page>;
};

type TestFixtures = {
  /** Console levels that fail a test (navigation also counts React's warnings). */
  consoleLevels: Array<Problem['level']>;
  /** Lines that never fail a test of this file or group, such as the browser's own line for a provoked 4xx. */
  consoleAllowed: RegExp | undefined;
  consoleWatch: ConsoleWatch;
  /**
   * A screenshot at the current viewport into SHOTS_DIR as `<name>.png`, when SHOTS_DIR is set (for looking at, not
   * asserting): of `options.page`, else of the page the fixtures opened last (the test's `page` or `openPage`'s).
   */
  snap: (name: string, options?: { page?: Page; fullPage?: boolean }) => Promise<void>;
  /** A fresh account signed up through the real calls, signed in in the test's `page`. */
  buyer: Person;
  /** Fails a test whose file would use a shop another file started (a spec without its own `shopOptions`). */
  shopGuard: undefined;
};

/** A person as the journeys sign them up. */
export const person = (name: string, email: string, phone: string, password: string): Person => ({
  name,
  email,
  phone,
  password,
});

let counter = 0;
/** An address no other journey of this run uses. */
export const uniqueEmail = (label: string): string =>
  `${label}.${Date.now().toString(36)}.${process.pid}.${++counter}@example.in`;

async function signUp(
  url: string,
  smtp: TestSmtpServer,
  person: Person & Record<string, string>,
  request?: APIRequestContext,
): Promise<void> {
  const api = request ?? (await playwrightRequest.newContext());
  try {
    const post = async (endpoint: string, form: Record<string, string>) => {
      const token = (await (await api.get(`${url}/api/csrf-token/`)).json()).csrfToken as string;
      const response = await api.post(`${url}${endpoint}`, { form, headers: { 'X-CSRFToken': token } });
      expect(response.status(), `${endpoint}: ${await response.text()}`).toBe(200);
    };
    await post('/api/auth/send-otp/', { name: person.name, email: person.email });
    // The code's own email: one sent earlier (a team invitation) may hold a 4-digit number too, such as a year.
    const mail = await smtp.waitFor(
      (m) => m.to.includes(person.email) && m.subject === 'Your verification code',
    );
    const otp = /^\s+(\d{4})\s*$/m.exec(mail.text)?.[1] as string;
    await post('/api/auth/initiate-signup/', { ...person, otp });
  } finally {
    if (!request) await api.dispose();
  }
}

/**
 * The spec file this worker's shop serves: the file of the first test that ran while it was up. Files without a
 * `shopOptions` of their own can share a worker, and a worker fixture is made once per worker.
 */
const shopOwner: { up: boolean; file?: string } = { up: false };

export const test = base.extend<TestFixtures, WorkerFixtures>({
  shopOptions: [{ name: 'shop' }, { scope: 'worker', option: true }],

  shop: [
    async ({ shopOptions }, use) => {
      const smtp = await new TestSmtpServer().start();
      const server = await startServer({ SMTP_URL: smtp.url, ...shopOptions.env });
      const mailTo = async (to: string, subject: string, after = 0) => {
        const matches = (mail: ReceivedMail) => mail.to.includes(to) && mail.subject === subject;
        await smtp.waitFor((mail) => matches(mail) && smtp.messages.filter(matches).length > after, 20_000);
        const mail = smtp.messages.filter(matches).at(-1);
        if (!mail) throw new Error(`no "${subject}" to ${to}`);
        return mail;
      };
      shopOwner.up = true;
      shopOwner.file = undefined;
      try {
        await use({
          url: server.url,
          dataDir: server.dataDir,
          server,
          smtp,
          admin: operatorCli(() => server.dataDir),
          signUp: (person, request) => signUp(server.url, smtp, person, request),
          mailTo,
          codeIn: async (to, subject, digits, after) => {
            const text = (await mailTo(to, subject, after)).text;
            const code = new RegExp(`^\\s+(\\d{${digits}})\\s*$`, 'm').exec(text)?.[1];
            if (!code) throw new Error(`no ${digits}-digit code in "${subject}"`);
            return code;
          },
        });
      } finally {
        shopOwner.up = false;
        await server.close();
        await smtp.stop();
      }
    },
    { scope: 'worker', timeout: 180_000 },
  ],

  recorded: [
    // biome-ignore lint/correctness/noEmptyPattern: Playwright reads the fixtures a fixture needs from this pattern.
    async ({}, use) => {
      await use({ problems: [], pages: [] });
    },
    { scope: 'worker' },
  ],

  openPage: [
    async ({ browser, recorded }, use) => {
      const contexts: BrowserContext[] = [];
      await use(async (options) => {
        const context = await browser.newContext(options);
        contexts.push(context);
        context.on('page', (opened) => record(opened, recorded));
        const page = await context.newPage();
        return page;
      });
      for (const context of contexts) await context.close();
    },
    { scope: 'worker' },
  ],

  shopGuard: [
    // biome-ignore lint/correctness/noEmptyPattern: Playwright reads the fixtures a fixture needs from this pattern.
    async ({}, use, testInfo) => {
      const owned = () => {
        if (!shopOwner.up) return;
        shopOwner.file ??= testInfo.file;
        if (shopOwner.file !== testInfo.file)
          throw new Error(
            `${path.basename(testInfo.file)} would use the shop of ${path.basename(shopOwner.file)}: give it test.use({ shopOptions: { name: '…' } })`,
          );
      };
      owned();
      await use(undefined);
      owned();
    },
    { auto: true },
  ],

  consoleLevels: [['error'], { option: true }],
  consoleAllowed: [undefined, { option: true }],

  consoleWatch: [
    async ({ recorded, consoleLevels, consoleAllowed }, use) => {
      // What a beforeAll's page said counts against the first test after it, as it would in that test.
      const allowed = consoleAllowed ? [consoleAllowed] : [];
      const errors = () =>
        recorded.problems
          .filter((problem) => consoleLevels.includes(problem.level))
          .map((problem) => problem.text)
          .filter((text) => !allowed.some((pattern) => pattern.test(text)));
      await use({
        watch: (page) => record(page, recorded),
        errors,
        allow: (pattern) => allowed.push(pattern),
      });
      const left = errors();
      recorded.problems.splice(0);
      expect(left, 'no console errors').toEqual([]);
    },
    { auto: true },
  ],

  page: async ({ page, consoleWatch }, use) => {
    // The test's own page and every page its context opens later (a second tab, a popup).
    consoleWatch.watch(page);
    page.context().on('page', (opened) => consoleWatch.watch(opened));
    await use(page);
  },

  snap: async ({ recorded }, use) => {
    await use(async (name, options = {}) => {
      const dir = process.env.SHOTS_DIR;
      const page = options.page ?? recorded.pages.filter((open) => !open.isClosed()).at(-1);
      if (!dir || !page) return;
      mkdirSync(dir, { recursive: true });
      await page.screenshot({ path: path.join(dir, `${name}.png`), fullPage: options.fullPage });
    });
  },

  buyer: async ({ shop, page }, use) => {
    const buyer = {
      name: 'Asha Buyer',
      email: uniqueEmail('buyer'),
      phone: '+919812345670',
      password: 'Monsoon-kite-5521',
    };
    await shop.signUp(buyer, page.context().request);
    await use(buyer);
  },
});

type Recorded = { problems: Problem[]; pages: Page[] };

function record(page: Page, recorded: Recorded): void {
  recorded.pages.push(page);
  page.on('console', (message) => {
    const level = message.type();
    if (level === 'error' || level === 'warning')
      recorded.problems.push({ level, text: `${message.text()} (${message.location().url})` });
  });
  page.on('pageerror', (error) => recorded.problems.push({ level: 'error', text: error.message }));
}
