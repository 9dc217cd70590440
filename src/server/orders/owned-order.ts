import { and, eq } from 'drizzle-orm';
import type { Tx } from '../db';
import { users } from '../db/schema/accounts';
import { tools } from '../db/schema/catalogue';
import { orders } from '../db/schema/orders';
import { DomainError } from '../kernel/domain-error';

/**
 * The buyer's own paid order with its tool and buyer, locked for a change the buyer asks for (a billing correction,
 * a refund request). Another buyer's order is "Not found", as one that does not exist; an order that is not paid
 * is refused with the caller's message (a refunded one with its own, where the caller has one).
 */
export async function lockOwnPaidOrder(
  tx: Tx,
  input: { userId: string; orderId: string },
  refusals: { notPaid: string; refunded?: string },
) {
  const [found] = await tx
    .select({ order: orders, tool: tools, user: users })
    .from(orders)
    .innerJoin(tools, eq(tools.id, orders.toolId))
    .innerJoin(users, eq(users.id, orders.userId))
    .where(and(eq(orders.id, input.orderId), eq(orders.userId, input.userId)))
    .for('update', { of: orders });
  if (!found) throw new DomainError('not_found', 'Not found');
  if (found.order.status === 'refunded' && refusals.refunded)
    throw new DomainError('refused', refusals.refunded);
  if (found.order.status !== 'paid') throw new DomainError('refused', refusals.notPaid);
  return found;
}
