import { and, eq, isNull } from 'drizzle-orm';
import type { Tx } from '../../db';
import { users } from '../../db/schema/accounts';
import { tools } from '../../db/schema/catalogue';
import { licenses } from '../../db/schema/licenses';
import { purchases } from '../../db/schema/orders';
import type { IssuedDocument } from '../../invoices/issue';
import type { AppContext } from '../../kernel/context';
import { toolLabel } from '../../licenses/delivery-email';
import { renderEmail } from '../../mail/layout';
import { enqueueMail } from '../../mail/outbox';
import type { OrderRow } from './kind';

/**
 * What the kinds that change a bought license (renewal, upgrade) share: the license locked while still live, the
 * buyer and the tool named on the documents, and the thank-you email with the invoice attached.
 */

/** The license, locked, while it is active and its purchase not refunded; undefined otherwise. */
export async function lockLiveLicense(tx: Tx, licenseId: string) {
  const [live] = await tx
    .select({ purchaseId: purchases.id, updatesUntil: licenses.updatesUntil })
    .from(licenses)
    .innerJoin(purchases, eq(purchases.id, licenses.purchaseId))
    .where(and(eq(licenses.id, licenseId), eq(licenses.status, 'active'), isNull(purchases.refundedAt)))
    .for('update', { of: licenses });
  return live;
}

/** The order's buyer, and its tool as the documents name it. */
export async function buyerAndLabel(tx: Tx, order: OrderRow) {
  const [row] = await tx
    .select({ user: users, tool: tools })
    .from(users)
    .innerJoin(tools, eq(tools.id, order.toolId))
    .where(eq(users.id, order.userId));
  if (!row) throw new Error(`order ${order.id} refers to a missing user or tool`);
  return { user: row.user, label: toolLabel(row.tool.name, row.tool.device) };
}

/** The order's tool as the documents name it. */
export async function labelOf(tx: Tx, order: OrderRow) {
  const [tool] = await tx.select().from(tools).where(eq(tools.id, order.toolId));
  if (!tool) throw new Error(`order ${order.id} refers to a missing tool`);
  return toolLabel(tool.name, tool.device);
}

/** Queues the email that thanks the buyer for the change: a greeting, its details and the tax invoice attached. */
export async function mailLicenseChange(
  ctx: AppContext,
  tx: Tx,
  now: Date,
  mail: {
    order: OrderRow;
    user: { name: string; email: string };
    invoice: IssuedDocument;
    kind: string;
    subject: string;
    heading: string;
    /** What follows "Hello <name>, ". */
    text: string;
    rows: Array<[string, string]>;
  },
) {
  await enqueueMail(
    ctx,
    tx,
    {
      to: mail.user.email,
      ...renderEmail({
        subject: mail.subject,
        heading: mail.heading,
        blocks: [
          { kind: 'paragraph', text: `Hello ${mail.user.name}, ${mail.text}` },
          { kind: 'details', rows: [...mail.rows, ['Tax invoice', `${mail.invoice.number} (attached)`]] },
        ],
      }),
      kind: mail.kind,
      ref: `order:${mail.order.id}`,
      attachments: [{ kind: 'invoice', id: mail.invoice.id }],
    },
    now,
  );
}
