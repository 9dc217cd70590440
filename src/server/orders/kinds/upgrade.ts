import { and, eq, isNull } from 'drizzle-orm';
import { UPGRADE_MESSAGES, upgradePriceSubunits } from '../../../shared/editions';
import { type EditionRow, editionsOf } from '../../catalogue/editions';
import type { Tx } from '../../db';
import { toolEditions, tools } from '../../db/schema/catalogue';
import { licenses } from '../../db/schema/licenses';
import { orders, purchases } from '../../db/schema/orders';
import { DomainError } from '../../kernel/domain-error';
import { changeEdition } from '../../licenses/create';
import { queueUpgradeEvent } from '../../webhooks/events';
import type { OrderKind, OrderRow } from './kind';
import { buyerAndLabel, labelOf, lockLiveLicense, mailLicenseChange } from './license-change';

/**
 * An upgrade (decision 056): a bought license moves to a higher edition of its tool for the difference between the
 * two editions' list prices today, in the license's currency, times its seats (never below Razorpay's smallest
 * charge). The license keeps its key, machines, feeds and members; every key of it answers with the new edition's
 * entitlements from the settlement on. A refund of the upgrade moves it back and touches nothing else.
 */
/** An upgrade's line on its documents: the tool, the editions it goes from and to, and the seats. */
function upgradeInvoiceLine(
  label: string,
  order: Pick<OrderRow, 'seats'>,
  editions: { from: { name: string }; to: { name: string } },
): string {
  return `${label} — Upgrade from ${editions.from.name} to ${editions.to.name}${order.seats > 1 ? `, ${order.seats} seats` : ''}, delivered electronically`;
}

export const upgradeKind: OrderKind = {
  name: 'upgrade',

  async plan(ctx, buyer, request) {
    const licenseId = request.upgradeLicenseId as string;
    // The buyer's own license of a purchase (a team's owner upgrades the team; a member holds no purchase).
    const [held] = await ctx.db
      .select({ license: licenses, purchase: purchases, currency: orders.currency })
      .from(licenses)
      .innerJoin(purchases, eq(purchases.id, licenses.purchaseId))
      .innerJoin(orders, eq(orders.id, purchases.orderId))
      .where(
        and(eq(licenses.id, licenseId), eq(licenses.holderId, buyer.id), isNull(licenses.teamLicenseId)),
      );
    if (!held || held.purchase.refundedAt || held.license.status === 'revoked')
      throw new DomainError('not_found', UPGRADE_MESSAGES.licenseNotFound);
    if (held.license.status !== 'active') throw new DomainError('refused', UPGRADE_MESSAGES.notActive);
    if (request.currency !== held.currency)
      throw new DomainError('invalid', UPGRADE_MESSAGES.currency(held.currency));
    const [tool] = await ctx.db.select().from(tools).where(eq(tools.id, held.purchase.toolId));
    if (!tool) throw new Error(`license ${licenseId} refers to a missing tool`);
    const editions = (await editionsOf(ctx.db, [tool.id])).get(tool.id) ?? [];
    const from = editions.find((edition) => edition.id === held.license.editionId);
    if (!from) throw new DomainError('refused', UPGRADE_MESSAGES.noEdition);
    const higher = editions.filter((edition) => edition.position > from.position);
    const to = request.editionId ? higher.find((edition) => edition.id === request.editionId) : higher[0];
    if (!to)
      throw new DomainError(
        'refused',
        higher.length ? UPGRADE_MESSAGES.chooseHigher : UPGRADE_MESSAGES.atTop,
      );
    return {
      tool,
      unitPrice: upgradePriceSubunits(from, to, held.currency),
      seats: held.license.seats,
      licenseId,
      terms: { fromEditionId: from.id, toEditionId: to.id },
    };
  },

  async fulfil(ctx, tx, order, now) {
    const licenseId = order.licenseId as string;
    const { from, to } = await editionsOfUpgrade(tx, order);
    const live = await lockLiveLicense(tx, licenseId);
    // Refunded, suspended or upgraded some other way since it was ordered: the payment goes back.
    if (!live || !(await changeEdition(tx, licenseId, { from: from.id, to: to.id })))
      return {
        settled: false,
        reason: 'Upgrade of a license that changed since it was ordered',
        detail: { licenseId },
      };
    const { user, label } = await buyerAndLabel(tx, order);
    return {
      settled: true,
      purchaseId: live.purchaseId,
      licenseChanged: true,
      detail: { licenseId, from: from.name, to: to.name, seats: order.seats },
      invoiceLine: upgradeInvoiceLine(label, order, { from, to }),
      deliver: async (invoice) => {
        await queueUpgradeEvent(
          tx,
          { licenseId, orderId: order.id, from: from.name, to: to.name, entitlements: to.entitlements },
          now,
        );
        await mailLicenseChange(ctx, tx, now, {
          order,
          user,
          invoice,
          kind: 'license-upgraded',
          subject: `${label} is now ${to.name}`,
          heading: `Thank you: your license is now ${to.name}`,
          text: `your license for ${label} is now the ${to.name} edition${order.seats > 1 ? `, on all ${order.seats} seats` : ''}. The same key works on the same computers: the tool picks up what ${to.name} adds the next time it checks its license.`,
          rows: [
            ['Edition', `${from.name} → ${to.name}`],
            ...(to.entitlements.length ? [['Adds', to.entitlements.join(', ')] as [string, string]] : []),
          ],
        });
      },
    };
  },

  // Back to the edition it came from, if the upgrade is still what it runs as; the license lives on.
  async describe(tx, order) {
    return upgradeInvoiceLine(await labelOf(tx, order), order, await editionsOfUpgrade(tx, order));
  },

  async undo(_ctx, tx, order, settled) {
    if (settled) {
      const { from, to } = await editionsOfUpgrade(tx, order);
      await changeEdition(tx, order.licenseId as string, { from: to.id, to: from.id });
    }
    return { purchaseId: null, downloadLinksRevoked: 0 };
  },
};

async function editionsOfUpgrade(tx: Tx, order: OrderRow): Promise<{ from: EditionRow; to: EditionRow }> {
  const { fromEditionId, toEditionId } = order.terms ?? {};
  const rows =
    fromEditionId && toEditionId
      ? await tx.select().from(toolEditions).where(eq(toolEditions.toolId, order.toolId))
      : [];
  const from = rows.find((edition) => edition.id === fromEditionId);
  const to = rows.find((edition) => edition.id === toEditionId);
  if (!from || !to) throw new Error(`upgrade order ${order.id} names editions that do not exist`);
  return { from, to };
}
