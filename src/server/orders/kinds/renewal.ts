import { and, eq, isNull } from 'drizzle-orm';
import {
  addMonths,
  periodText,
  RENEWAL_GRACE_DAYS,
  RENEWAL_MESSAGES,
  RENEWAL_OFFER_DAYS,
  renewalPriceSubunits,
} from '../../../shared/update-periods';
import type { Tx } from '../../db';
import { licenses } from '../../db/schema/licenses';
import { orders } from '../../db/schema/orders';
import { DomainError } from '../../kernel/domain-error';
import { indiaDay } from '../../kernel/operator-time';
import { changeUpdatesUntil } from '../../licenses/create';
import { boughtLicenses } from '../../licenses/lookup';
import { queueRenewalEvent } from '../../webhooks/events';
import type { OrderKind, OrderRow } from './kind';
import { buyerAndLabel, labelOf, lockLiveLicense, mailLicenseChange } from './license-change';

const DAY_MS = 24 * 60 * 60 * 1000;

/**
 * A renewal (decision 059): another period of updates for a bought license, at its edition's (or tool's) renewal
 * price times its seats. Paid before the end of updates, or within RENEWAL_GRACE_DAYS after it, it extends from the
 * end; later, from the day it is paid. A team's seats are renewed with it. A refund of the renewal puts the end back.
 */
export const renewalKind: OrderKind = {
  name: 'renewal',

  async plan(ctx, buyer, request) {
    const licenseId = request.renewLicenseId as string;
    const [held] = await boughtLicenses(ctx.db).where(
      and(eq(licenses.id, licenseId), eq(licenses.holderId, buyer.id), isNull(licenses.teamLicenseId)),
    );
    if (!held || held.purchase.refundedAt || held.license.status === 'revoked')
      throw new DomainError('not_found', RENEWAL_MESSAGES.licenseNotFound);
    if (held.license.status !== 'active') throw new DomainError('refused', RENEWAL_MESSAGES.notActive);
    if (request.currency !== held.currency)
      throw new DomainError('invalid', RENEWAL_MESSAGES.currency(held.currency));
    const period = held.edition ?? held.tool;
    const price = renewalPriceSubunits(period, held.currency);
    const until = held.license.updatesUntil;
    if (period.updatesMonths === null || price === null || !until)
      throw new DomainError('refused', RENEWAL_MESSAGES.lifetime);
    const opens = new Date(until.getTime() - RENEWAL_OFFER_DAYS * DAY_MS);
    if (ctx.clock.now() < opens) throw new DomainError('refused', RENEWAL_MESSAGES.notYet(indiaDay(opens)));
    return {
      tool: held.tool,
      unitPrice: price,
      seats: held.license.seats,
      licenseId,
      terms: { months: period.updatesMonths },
    };
  },

  async fulfil(ctx, tx, order, now) {
    const licenseId = order.licenseId as string;
    const months = order.terms?.months ?? 0;
    const live = await lockLiveLicense(tx, licenseId);
    // Refunded, suspended, or moved to lifetime updates since it was ordered: the payment goes back.
    if (!live?.updatesUntil || months <= 0)
      return {
        settled: false,
        reason: 'Renewal of a license that changed since it was ordered',
        detail: { licenseId },
      };
    const from = live.updatesUntil;
    const start = now.getTime() <= from.getTime() + RENEWAL_GRACE_DAYS * DAY_MS ? from : now;
    const to = addMonths(start, months);
    await changeUpdatesUntil(tx, licenseId, { from, to });
    // The refund puts back what this settlement moved: kept on the order itself.
    const terms = { ...order.terms, fromUpdatesUntil: from.toISOString(), toUpdatesUntil: to.toISOString() };
    await tx.update(orders).set({ terms }).where(eq(orders.id, order.id));

    const { user, label } = await buyerAndLabel(tx, order);
    const covered = `${indiaDay(start)} – ${indiaDay(new Date(to.getTime() - DAY_MS))}`;
    return {
      settled: true,
      purchaseId: live.purchaseId,
      licenseChanged: true,
      detail: { licenseId, months, from: terms.fromUpdatesUntil, to: terms.toUpdatesUntil },
      invoiceLine: renewalLine(order, label, covered),
      deliver: async (invoice) => {
        await queueRenewalEvent(tx, { licenseId, orderId: order.id, updatesUntil: to }, now);
        await mailLicenseChange(ctx, tx, now, {
          order,
          user,
          invoice,
          kind: 'license-renewed',
          subject: `Updates of ${label} renewed until ${indiaDay(to)}`,
          heading: 'Thank you: your updates are renewed',
          text: `your license for ${label} gets every new version released until ${indiaDay(to)}${order.seats > 1 ? `, on all ${order.seats} seats` : ''}. The license itself works for ever, as before: nothing to install or activate again.`,
          rows: [['Updates until', indiaDay(to)]],
        });
      },
    };
  },

  // Before it is paid the period's days are not known (they run from the end, or from the day it is paid).
  async describe(tx, order) {
    return renewalLine(order, await labelOf(tx, order), null);
  },

  // Back to the end it had, if the renewal's end is still the license's; the license lives on.
  async undo(_ctx, tx, order, settled) {
    const settledTerms = await termsOf(tx, order);
    if (settled && settledTerms.fromUpdatesUntil && settledTerms.toUpdatesUntil)
      await changeUpdatesUntil(tx, order.licenseId as string, {
        from: new Date(settledTerms.toUpdatesUntil),
        to: new Date(settledTerms.fromUpdatesUntil),
      });
    return { purchaseId: null, downloadLinksRevoked: 0 };
  },
};

/** A renewal's line on its documents: the period, the tool, the days it covers once they are known, the seats. */
function renewalLine(order: OrderRow, label: string, covered: string | null): string {
  const months = order.terms?.months ?? 0;
  return `Updates for ${periodText(months)}: ${label}${covered ? `, ${covered}` : ''}${order.seats > 1 ? `, ${order.seats} seats` : ''}`;
}

/** The order's terms as settlement left them (the refund's order row may have been read before it). */
async function termsOf(tx: Tx, order: OrderRow) {
  const [row] = await tx.select({ terms: orders.terms }).from(orders).where(eq(orders.id, order.id));
  return row?.terms ?? {};
}
