import { eq } from 'drizzle-orm';
import { expect, it } from 'vitest';
import { mailsTo, uniqueEmail } from '../../../test/support/auth-helpers';
import { shopTestAppForFile } from '../../../test/support/file-apps';
import { buyTool, catalogueRows, newBuyer } from '../../../test/support/shop-fixtures';
import { invoices } from '../db/schema/invoices';
import type { TaxDocument } from '../invoices/document';

const t = shopTestAppForFile();

const invoiceEmail = async (orderId: string) => {
  const [row] = await t.ctx.db.select().from(invoices).where(eq(invoices.orderId, orderId));
  return (row?.document as TaxDocument | undefined)?.buyer.email;
};

it('after an email change, the next purchase is delivered and invoiced to the new address; the old invoice keeps its own', async () => {
  const { user, client } = await newBuyer(t);
  const { windows, macos } = await catalogueRows(t);
  const first = await buyTool(t, client, windows.id);
  expect(await mailsTo(t, user.email, 'license-delivery')).toHaveLength(1);

  const moved = uniqueEmail('moved');
  expect((await client.post('/api/account/email', { email: moved })).statusCode).toBe(200);
  const [codeMail] = await mailsTo(t, moved, 'email-change-code');
  const code = /^\s+(\d{6})$/m.exec(codeMail?.text ?? '')?.[1] ?? '';
  expect((await client.post('/api/account/email/confirm', { email: moved, code })).statusCode).toBe(200);

  const second = await buyTool(t, client, macos.id);
  expect(await mailsTo(t, moved, 'license-delivery')).toHaveLength(1);
  expect(await mailsTo(t, user.email, 'license-delivery')).toHaveLength(1);
  expect(await invoiceEmail(second.order.id)).toBe(moved);
  expect(await invoiceEmail(first.order.id)).toBe(user.email);
});
