import type { OrderEventKind } from '../../shared/orders';
import type { DbOrTx } from '../db';
import { orderEvents } from '../db/schema/orders';

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
