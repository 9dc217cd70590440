import { and, eq, isNull } from 'drizzle-orm';
import { EDITION_MESSAGES } from '../../../shared/editions';
import { orderAmountSubunits } from '../../../shared/money';
import { SHOP_ENDPOINT_MESSAGES } from '../../../shared/shop';
import { addMonths } from '../../../shared/update-periods';
import { findActiveTool, ownedToolIds, type ToolRow } from '../../catalogue/catalogue';
import { revokeDownloadLinks } from '../../catalogue/downloads';
import { deviceLimitOf, type EditionRow, editionsOf } from '../../catalogue/editions';
import type { Tx } from '../../db';
import { users } from '../../db/schema/accounts';
import { toolEditions, tools } from '../../db/schema/catalogue';
import { purchases } from '../../db/schema/orders';
import { DomainError } from '../../kernel/domain-error';
import { insertLicense, setSeatsOfPurchase } from '../../licenses/create';
import { toolLabel } from '../../licenses/delivery-email';
import { changeLicenseOfPurchase } from '../../licenses/status';
import { convertTrial } from '../../trials/trials';
import { queuePurchaseEvents } from '../../webhooks/events';
import { queueDeliveryEmail } from '../delivery';
import type { OrderKind, OrderRow } from './kind';

const PAYMENT_MESSAGES = SHOP_ENDPOINT_MESSAGES.payment;

/**
 * The invoice line of licenses sold (a new license, or seats added to a team's): the tool and its edition, and as
 * many machines at a time as the edition's (or the tool's) limit says, a team's each seat.
 */
export function licenseInvoiceLine(
  order: Pick<OrderRow, 'seats'>,
  tool: ToolRow,
  edition: EditionRow | undefined,
): string {
  const limit = edition ? deviceLimitOf(edition, tool) : tool.activationLimit;
  const name = edition
    ? `${toolLabel(tool.name, tool.device)} — ${edition.name}`
    : toolLabel(tool.name, tool.device);
  return `${name} — ${order.seats > 1 ? `${order.seats} seats, each a license` : 'license'} for up to ${limit} ${limit === 1 ? 'device' : 'devices'}, delivered electronically`;
}

/** The edition an order of a tool with editions bought, from its terms. */
export async function editionOfOrder(
  tx: Tx,
  order: Pick<OrderRow, 'terms'>,
): Promise<EditionRow | undefined> {
  const editionId = order.terms?.editionId;
  if (!editionId) return undefined;
  const [edition] = await tx.select().from(toolEditions).where(eq(toolEditions.id, editionId));
  return edition;
}

/** A tool the buyer does not own yet: one seat, or several (a team license, decision 051). */
export const newLicense: OrderKind = {
  name: 'new-license',

  async plan(ctx, buyer, request) {
    const tool = request.toolId ? await findActiveTool(ctx.db, request.toolId) : undefined;
    if (!tool) throw new DomainError('not_found', PAYMENT_MESSAGES.toolNotFound);
    if (tool.comingSoon) throw new DomainError('conflict', PAYMENT_MESSAGES.comingSoon);
    if ((await ownedToolIds(ctx.db, buyer.id)).has(tool.id))
      throw new DomainError('conflict', PAYMENT_MESSAGES.alreadyOwned);
    const editions = (await editionsOf(ctx.db, [tool.id])).get(tool.id) ?? [];
    if (editions.length === 0) {
      if (request.editionId) throw new DomainError('invalid', EDITION_MESSAGES.noEditions(tool.name));
      const unitPrice = orderAmountSubunits(tool, request.currency);
      return { tool, unitPrice, seats: request.seats, licenseId: null, terms: null };
    }
    const edition = editions.find((candidate) => candidate.id === request.editionId);
    if (!edition) throw new DomainError('invalid', EDITION_MESSAGES.choose(tool.name));
    return {
      tool,
      unitPrice: orderAmountSubunits(edition, request.currency),
      seats: request.seats,
      licenseId: null,
      terms: { editionId: edition.id },
    };
  },

  async fulfil(ctx, tx, order, now) {
    // Two orders for one tool, both paid: the second gives nothing, and its payment goes back.
    const [owned] = await tx
      .select({ id: purchases.id })
      .from(purchases)
      .where(
        and(
          eq(purchases.userId, order.userId),
          eq(purchases.toolId, order.toolId),
          isNull(purchases.refundedAt),
        ),
      )
      .limit(1);
    if (owned)
      return {
        settled: false,
        reason: 'Duplicate purchase of an owned tool',
        detail: { existingPurchaseId: owned.id },
      };

    const [user] = await tx
      .select({ id: users.id, name: users.name, email: users.email })
      .from(users)
      .where(eq(users.id, order.userId));
    const [tool] = await tx.select().from(tools).where(eq(tools.id, order.toolId));
    if (!user || !tool) throw new Error(`order ${order.id} refers to a missing user or tool`);
    const edition = await editionOfOrder(tx, order);
    const editionId = edition?.id ?? null;
    // Updates for the edition's (or the tool's) period from today; null: every release, for life (decision 059).
    const months = (edition ?? tool).updatesMonths;
    const updatesUntil = months === null ? null : addMonths(now, months);

    // The buyer now owns the tool: the purchase the license, downloads and My Tools hang off.
    const [purchase] = await tx
      .insert(purchases)
      .values({ userId: order.userId, toolId: order.toolId, orderId: order.id, createdAt: now })
      .returning({ id: purchases.id });
    if (!purchase) throw new Error('purchase insert returned no row');
    // A trial of the tool becomes the paid license (same key, its machine stays activated); else a new one.
    const secret =
      (await convertTrial(
        ctx,
        tx,
        { id: purchase.id, userId: order.userId, toolId: order.toolId, editionId, updatesUntil },
        now,
      )) ??
      (
        await insertLicense(ctx, tx, tool.delivery, {
          holderId: order.userId,
          purchaseId: purchase.id,
          editionId,
          updatesUntil,
          createdAt: now,
        })
      ).secret;
    if (order.seats > 1) await setSeatsOfPurchase(tx, purchase.id, order.seats);
    return {
      settled: true,
      purchaseId: purchase.id,
      detail: edition ? { purchaseId: purchase.id, edition: edition.name } : { purchaseId: purchase.id },
      invoiceLine: licenseInvoiceLine(order, tool, edition),
      deliver: async (invoice) => {
        await queuePurchaseEvents(tx, { orderId: order.id, purchaseId: purchase.id }, now);
        await queueDeliveryEmail(ctx, tx, {
          occasion: 'purchase',
          user,
          purchaseId: purchase.id,
          order,
          tool,
          secret,
          invoice,
        });
      },
    };
  },

  async describe(tx, order) {
    const [tool] = await tx.select().from(tools).where(eq(tools.id, order.toolId));
    if (!tool) throw new Error(`order ${order.id} refers to a missing tool`);
    return licenseInvoiceLine(order, tool, await editionOfOrder(tx, order));
  },

  async undo(_ctx, tx, order, _settled, now) {
    const [purchase] = await tx
      .update(purchases)
      .set({ refundedAt: now })
      .where(and(eq(purchases.orderId, order.id), isNull(purchases.refundedAt)))
      .returning({ id: purchases.id });
    if (!purchase) return { purchaseId: null, downloadLinksRevoked: 0 };
    // The license dies with the purchase: validate answers REVOKED from this commit on (a team's members' too).
    await changeLicenseOfPurchase(tx, purchase.id, 'revoke', now);
    return { purchaseId: purchase.id, downloadLinksRevoked: await revokeDownloadLinks(tx, purchase.id) };
  },
};
