import { inArray, sql } from 'drizzle-orm';
import type { OrderEventKind } from '../../shared/orders';
import type { DbOrTx, Tx } from '../db';
import { orderEvents, orders } from '../db/schema/orders';
import type { ArchivedMail } from '../mail/retention';

const ORDER_REF = 'order:';
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/** Adds a line to the order's history, for the operator (docs/product.md §12). */
export async function recordOrderEvent(
  db: DbOrTx,
  orderId: string,
  kind: OrderEventKind,
  detail: Record<string, unknown>,
  at: Date,
): Promise<void> {
  await db.insert(orderEvents).values({ orderId, kind, detail, createdAt: at });
}

/** An order's email past its retention leaves a line in the order's history: the fact stays, the text does not. */
export async function archiveOrderEmails(tx: Tx, gone: readonly ArchivedMail[]): Promise<void> {
  const ofOrders = gone.filter((mail) => mail.ref?.startsWith(ORDER_REF));
  if (ofOrders.length === 0) return;
  const known = await tx
    .select({ id: orders.id })
    .from(orders)
    .where(
      inArray(
        orders.id,
        ofOrders.map((mail) => (mail.ref as string).slice(ORDER_REF.length)).filter((id) => UUID.test(id)),
      ),
    );
  const ids = new Set(known.map((order) => order.id));
  const lines = ofOrders
    .map((mail) => ({ mail, orderId: (mail.ref as string).slice(ORDER_REF.length) }))
    .filter(({ orderId }) => ids.has(orderId))
    .map(({ mail, orderId }) => ({
      orderId,
      kind: 'email-archived' as const,
      detail: { outboxId: mail.id, email: mail.kind, subject: mail.subject },
      createdAt: mail.sentAt,
    }));
  if (lines.length > 0) await tx.insert(orderEvents).values(lines);
}

/** Erasure: an address in the history of the person's orders (a 'paid' event's details) is replaced. */
export async function redactOrderEvents(
  tx: Tx,
  userId: string,
  pattern: string,
  replacement: string,
): Promise<void> {
  await tx.execute(sql`
    update order_events set detail = regexp_replace(detail::text, ${pattern}, ${replacement}, 'gi')::jsonb
    where order_id in (select id from orders where user_id = ${userId}) and detail::text ~* ${pattern}`);
}
