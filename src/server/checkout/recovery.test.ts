import { and, eq } from 'drizzle-orm';
import { beforeAll, describe, expect, it } from 'vitest';
import { shopTestAppForFile } from '../../../test/support/file-apps';
import { openedMails } from '../../../test/support/mail';
import { answerChecker } from '../../../test/support/openapi';
import { addTool, buyTool, createOrder, newBuyer } from '../../../test/support/shop-fixtures';
import { overview } from '../dashboard/overview';
import { accountExport } from '../data-rights/data-export';
import { eraseAccount } from '../data-rights/erasure';
import { checkoutStarts } from '../db/schema/checkout';
import { outbox } from '../db/schema/mail';
import { cliActor } from '../operator/audit';
import { sendCheckoutReminders } from './recovery';

const MINUTE = 60 * 1000;
const HOUR = 60 * MINUTE;

const t = shopTestAppForFile();
let matchesDocument: Awaited<ReturnType<typeof answerChecker>>;
beforeAll(async () => {
  matchesDocument = await answerChecker(t.app);
});

async function reminders(email: string) {
  const rows = await t.ctx.db
    .select()
    .from(outbox)
    .where(and(eq(outbox.to, email), eq(outbox.kind, 'checkout-reminder')))
    .orderBy(outbox.id);
  return openedMails(t.ctx, rows);
}

/** Runs the job twice at once, as two instances would: each reminder must still go out once. */
async function runJob() {
  await Promise.all([sendCheckoutReminders(t.ctx), sendCheckoutReminders(t.ctx)]);
}

async function openedDialog(extra: Record<string, unknown> = {}) {
  const tool = await addTool(t, {
    name: `Ledger Cleaner ${Math.random().toString(36).slice(2, 6)}`,
    device: 'Windows',
  });
  const buyer = await newBuyer(t);
  const opened = await buyer.client.post('/api/checkout/opened', { toolId: tool.id, ...extra });
  expect(opened.statusCode, opened.body).toBe(200);
  matchesDocument('POST', '/api/checkout/opened', opened);
  expect(opened.json()).toEqual({ recorded: true });
  return { tool, ...buyer };
}

describe('checkout reminders', () => {
  it('reminds a buyer who left the billing dialog after an hour and after a day, naming the tool, and never a third time', async () => {
    // The code as typed (any case); the link carries it as the shop matches codes, upper case.
    const { tool, user, client } = await openedDialog({ couponCode: 'comeback10' });

    t.clock.advance(59 * MINUTE);
    await runJob();
    expect(await reminders(user.email)).toHaveLength(0);

    t.clock.advance(2 * MINUTE);
    await runJob();
    const [first] = await reminders(user.email);
    expect(await reminders(user.email)).toHaveLength(1);
    const link = `${t.baseUrl}/utility-tools?checkout=${tool.id}&coupon=COMEBACK10`;
    expect(first?.subject).toContain(`${tool.name} (Windows)`);
    expect(first?.text).toContain(link);
    expect(first?.html).toContain(link.replace('&', '&amp;'));
    expect(first?.listUnsubscribe).toContain('/api/account/unsubscribe?token=');

    t.clock.advance(12 * HOUR);
    await runJob();
    expect(await reminders(user.email)).toHaveLength(1);

    t.clock.advance(12 * HOUR);
    await runJob();
    const both = await reminders(user.email);
    expect(both).toHaveLength(2);
    expect(both[1]?.text).toContain(link);

    // No third: not later, and not after opening the dialog again.
    t.clock.advance(3 * 24 * HOUR);
    await runJob();
    expect((await client.post('/api/checkout/opened', { toolId: tool.id })).json()).toEqual({
      recorded: true,
    });
    t.clock.advance(25 * HOUR);
    await runJob();
    await runJob();
    expect(await reminders(user.email)).toHaveLength(2);
  });

  it('sends no second reminder to a buyer who bought after the first, and counts the order as recovered', async () => {
    const before = (await overview(t.ctx)).recoveredCheckouts;
    const { tool, user, client } = await openedDialog();
    t.clock.advance(HOUR + MINUTE);
    await runJob();
    expect(await reminders(user.email)).toHaveLength(1);
    expect((await reminders(user.email))[0]?.text).toContain(
      `${t.baseUrl}/utility-tools?checkout=${tool.id}\n`,
    );

    t.clock.advance(10 * MINUTE);
    const { order } = await buyTool(t, client, tool.id);
    t.clock.advance(24 * HOUR);
    await runJob();
    expect(await reminders(user.email)).toHaveLength(1);

    const after = (await overview(t.ctx)).recoveredCheckouts;
    expect(after.orders).toBe(before.orders + 1);
    expect(after.value.INR).toBe(before.value.INR + (order?.amount ?? Number.NaN));
  });

  it('sends none to a buyer who opted out, in the account or with the one-click link of a reminder', async () => {
    const optedOut = await openedDialog();
    const off = await optedOut.client.request('PATCH', '/api/account/email-preferences', {
      checkoutReminders: false,
    });
    expect(off.json()).toMatchObject({ checkoutReminders: false });

    const unsubscribes = await openedDialog();
    t.clock.advance(HOUR + MINUTE);
    await runJob();
    expect(await reminders(optedOut.user.email)).toHaveLength(0);
    const [first] = await reminders(unsubscribes.user.email);
    const oneClick = await fetch(first?.listUnsubscribe ?? '', {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: 'List-Unsubscribe=One-Click',
    });
    expect(oneClick.status).toBe(200);
    expect(await oneClick.json()).toEqual({ topic: 'checkoutReminders', subscribed: false });

    t.clock.advance(24 * HOUR);
    await runJob();
    expect(await reminders(optedOut.user.email)).toHaveLength(0);
    expect(await reminders(unsubscribes.user.email)).toHaveLength(1);
  });

  it('remembers a payment opened and not paid, and nothing for a tool the buyer owns', async () => {
    const tool = await addTool(t, { name: 'Payment Left Open' });
    const buyer = await newBuyer(t);
    expect((await createOrder(buyer.client, tool.id)).statusCode).toBe(200);
    t.clock.advance(HOUR + MINUTE);
    await runJob();
    expect(await reminders(buyer.user.email)).toHaveLength(1);

    const owned = await addTool(t, { name: 'Already Owned' });
    await buyTool(t, buyer.client, owned.id);
    const opened = await buyer.client.post('/api/checkout/opened', { toolId: owned.id });
    expect(opened.json()).toEqual({ recorded: false });
  });

  it('refuses bad input with a named field, an unknown tool, a signed-out caller and a missing CSRF token', async () => {
    const { client } = await newBuyer(t);
    const before = await t.ctx.db.$count(checkoutStarts);
    const noTool = await client.post('/api/checkout/opened', {});
    expect(noTool.statusCode).toBe(400);
    expect(noTool.json()).toMatchObject({ fieldErrors: { toolId: 'Unknown tool' } });
    matchesDocument('POST', '/api/checkout/opened', noTool);
    const badCoupon = await client.post('/api/checkout/opened', {
      toolId: (await addTool(t)).id,
      couponCode: 'no spaces!',
    });
    expect(badCoupon.statusCode).toBe(400);
    expect(Object.keys(badCoupon.json().fieldErrors)).toEqual(['couponCode']);
    const unknown = await client.post('/api/checkout/opened', { toolId: crypto.randomUUID() });
    expect(unknown.statusCode).toBe(404);
    matchesDocument('POST', '/api/checkout/opened', unknown);
    const stranger = await t.client();
    expect((await stranger.post('/api/checkout/opened', { toolId: crypto.randomUUID() })).statusCode).toBe(
      401,
    );
    client.sendCsrfHeader = false;
    expect((await client.post('/api/checkout/opened', { toolId: crypto.randomUUID() })).statusCode).toBe(403);
    expect(await t.ctx.db.$count(checkoutStarts)).toBe(before);
  });

  it("shows the opened checkout in the account's data export, and erasure deletes it", async () => {
    const { tool, user } = await openedDialog({ couponCode: 'SPRING' });
    expect((await accountExport(t.ctx, user.id))?.checkoutsOpened).toEqual([
      expect.objectContaining({ tool: tool.name, couponCode: 'SPRING', remindersSent: 0 }),
    ]);
    await eraseAccount(t.ctx, user.id, cliActor('recovery-tests'));
    expect(await t.ctx.db.$count(checkoutStarts, eq(checkoutStarts.userId, user.id))).toBe(0);
  });
});
