import { and, eq } from 'drizzle-orm';
import { beforeAll, describe, expect, it } from 'vitest';
import { adminOn } from '../../../test/support/command-line';
import { shopTestAppForFile } from '../../../test/support/file-apps';
import { openedMails } from '../../../test/support/mail';
import {
  buyThroughEmulator,
  catalogueRows,
  createOrder,
  newBuyer,
} from '../../../test/support/shop-fixtures';
import type { OrderDetail } from '../../shared/order-detail';
import { REFUND_REQUEST_MESSAGES, type RefundRequestView } from '../../shared/refund-requests';
import { overview } from '../dashboard/overview';
import { creditNotes } from '../db/schema/invoices';
import { outbox } from '../db/schema/mail';
import { auditLog } from '../db/schema/operator';
import { orders, refundRequests } from '../db/schema/orders';

const t = shopTestAppForFile();
let windowsId: string;
let macosId: string;

beforeAll(async () => {
  const rows = await catalogueRows(t);
  windowsId = rows.windows.id;
  macosId = rows.macos.id;
});

const admin = adminOn(() => t);
const DESCRIPTION = 'The installer stops at 40 % on Windows 11 and support could not fix it.';

async function mailsOf(orderId: string, kind: string) {
  const rows = await t.ctx.db
    .select()
    .from(outbox)
    .where(and(eq(outbox.ref, `order:${orderId}`), eq(outbox.kind, kind)));
  return openedMails(t.ctx, rows);
}

describe('refund requests', () => {
  it('a buyer asks once per order with a reason and a description; bad input and other orders change nothing', async () => {
    const { client } = await newBuyer(t);
    const order = await buyThroughEmulator(t, client, windowsId);
    const url = `/api/orders/${order.id}/refund-request`;

    const bad = await client.post(url, { reason: 'changed-my-mind', description: 'short' });
    expect(bad.statusCode).toBe(400);
    expect(Object.keys(bad.json<{ fieldErrors: Record<string, string> }>().fieldErrors).sort()).toEqual([
      'description',
      'reason',
    ]);
    const stranger = await newBuyer(t);
    expect(
      (await stranger.client.post(url, { reason: 'does-not-work', description: DESCRIPTION })).statusCode,
    ).toBe(404);
    const unpaid = await createOrder(stranger.client, macosId);
    const [unpaidRow] = await t.ctx.db
      .select()
      .from(orders)
      .where(eq(orders.razorpayOrderId, unpaid.json<{ order_id: string }>().order_id));
    const refusedUnpaid = await stranger.client.post(`/api/orders/${unpaidRow?.id}/refund-request`, {
      reason: 'not-confirmed',
      description: DESCRIPTION,
    });
    expect(refusedUnpaid.statusCode).toBe(409);
    expect(refusedUnpaid.json<{ message: string }>().message).toBe(REFUND_REQUEST_MESSAGES.notPaid);
    expect(await t.ctx.db.select().from(refundRequests)).toHaveLength(0);

    const asked = await client.post(url, { reason: 'does-not-work', description: DESCRIPTION });
    expect(asked.statusCode, asked.body).toBe(200);
    expect(asked.json<RefundRequestView>()).toMatchObject({ status: 'open', reason: 'does-not-work' });
    const again = await client.post(url, { reason: 'charged-twice', description: DESCRIPTION });
    expect(again.statusCode).toBe(409);
    expect(again.json<{ message: string }>().message).toBe(REFUND_REQUEST_MESSAGES.alreadyOpen);
    expect((await mailsOf(order.id, 'refund-request'))[0]?.text).toContain(DESCRIPTION);
    const detail = (await client.get(`/api/orders/${order.id}`)).json<OrderDetail>();
    expect(detail.refundRequests).toEqual([expect.objectContaining({ status: 'open' })]);
    expect(detail.history.map((event) => event.label)).toContain('Refund requested');
  });

  it('approved from the command line: refunded with a credit note and email; declined with a reason the buyer reads', async () => {
    const first = await newBuyer(t);
    const approved = await buyThroughEmulator(t, first.client, windowsId);
    await first.client.post(`/api/orders/${approved.id}/refund-request`, {
      reason: 'charged-twice',
      description: 'My card statement shows two debits of ₹1,499.',
    });
    const second = await newBuyer(t);
    const declined = await buyThroughEmulator(t, second.client, windowsId);
    await second.client.post(`/api/orders/${declined.id}/refund-request`, {
      reason: 'does-not-work',
      description: DESCRIPTION,
    });

    // The dashboard's open items count the requests waiting for an answer (issue 63).
    const open = async () => (await overview(t.ctx)).openItems.openRefundRequests;
    const waiting = await open();
    expect(waiting).toBeGreaterThanOrEqual(2);

    const listed = JSON.parse((await admin('refunds', 'requests', 'list', '--json')).stdout) as Array<
      RefundRequestView & { email: string }
    >;
    const toApprove = listed.find((row) => row.orderId === approved.id);
    const toDecline = listed.find((row) => row.orderId === declined.id);
    expect(toApprove?.email).toBe(first.user.email);
    expect((await admin('refunds', 'requests', 'list')).stdout).toContain(first.user.email);

    const run = await admin('refunds', 'requests', 'approve', (toApprove?.id ?? '').slice(0, 8));
    expect(run.stderr).toBe('');
    expect(run.stdout).toMatch(/approved\. Refunded ₹1,499\.00/);
    const [refunded] = await t.ctx.db.select().from(orders).where(eq(orders.id, approved.id));
    expect(refunded?.status).toBe('refunded');
    expect(
      await t.ctx.db.select().from(creditNotes).where(eq(creditNotes.orderId, approved.id)),
    ).toHaveLength(1);
    expect(await mailsOf(approved.id, 'refund-notice')).toHaveLength(1);
    expect(await open()).toBe(waiting - 1);
    expect((await admin('refunds', 'requests', 'approve', toApprove?.id ?? '')).exitCode).not.toBe(0);

    expect((await admin('refunds', 'requests', 'decline', toDecline?.id ?? '')).exitCode).not.toBe(0);
    const refusal = 'The tool works on Windows 11 22H2; please update Windows and write to us.';
    const declinedRun = await admin(
      'refunds',
      'requests',
      'decline',
      toDecline?.id ?? '',
      '--reason',
      refusal,
    );
    expect(declinedRun.exitCode).toBe(0);
    expect((await mailsOf(declined.id, 'refund-request-declined'))[0]?.text).toContain(refusal);

    const approvedPage = (await first.client.get(`/api/orders/${approved.id}`)).json<OrderDetail>();
    expect(approvedPage.status).toBe('refunded');
    expect(approvedPage.refundRequests[0]?.status).toBe('approved');
    expect(approvedPage.documents.map((doc) => doc.kind)).toEqual(['invoice', 'credit-note']);
    const declinedPage = (await second.client.get(`/api/orders/${declined.id}`)).json<OrderDetail>();
    expect(declinedPage.refundRequests[0]).toMatchObject({ status: 'declined', declineReason: refusal });
    expect(declinedPage.history.map((event) => event.label)).toContain('Refund request declined');

    const actions = (await t.ctx.db.select().from(auditLog)).map(
      (row) => `${row.actor} ${row.action} ${row.target}`,
    );
    expect(actions).toEqual(
      expect.arrayContaining([
        `cli:tester refund-request.approve order:${approved.id}`,
        `cli:tester order.refund order:${approved.id}`,
        `cli:tester refund-request.decline order:${declined.id}`,
        `buyer:self refund-request.create order:${declined.id}`,
      ]),
    );
  });
});
