import { and, eq, isNull } from 'drizzle-orm';
import { orderAmountSubunits } from '../../../shared/money';
import { SHOP_ENDPOINT_MESSAGES } from '../../../shared/shop';
import { findActiveTool } from '../../catalogue/catalogue';
import { toolEditions } from '../../db/schema/catalogue';
import { licenses } from '../../db/schema/licenses';
import { purchases } from '../../db/schema/orders';
import { DomainError } from '../../kernel/domain-error';
import { addSeats, removeSeats, seatsUsedOf } from '../../licenses/team-seats';
import { assertOwnTeam, queueSeatsAddedEmail } from '../../teams/teams';
import type { OrderKind } from './kind';
import { newLicense } from './new-license';

const PAYMENT_MESSAGES = SHOP_ENDPOINT_MESSAGES.payment;

/**
 * "Add seats" (decision 051): more seats for a team license the buyer owns, at the tool's price per seat. No new
 * purchase or license: the team gets the seats, the owner an email with the order's own invoice.
 */
export const addSeatsKind: OrderKind = {
  name: 'add-seats',

  async plan(ctx, buyer, request) {
    const tool = request.toolId ? await findActiveTool(ctx.db, request.toolId) : undefined;
    if (!tool) throw new DomainError('not_found', PAYMENT_MESSAGES.toolNotFound);
    if (tool.comingSoon) throw new DomainError('conflict', PAYMENT_MESSAGES.comingSoon);
    const licenseId = request.teamLicenseId as string;
    await assertOwnTeam(ctx.db, buyer.id, { licenseId, toolId: tool.id });
    // A seat of a team of an edition costs what that edition costs.
    const [team] = await ctx.db
      .select({ edition: toolEditions })
      .from(licenses)
      .innerJoin(toolEditions, eq(toolEditions.id, licenses.editionId))
      .where(eq(licenses.id, licenseId));
    const priced = team?.edition ?? tool;
    return {
      tool,
      unitPrice: orderAmountSubunits(priced, request.currency),
      seats: request.seats,
      licenseId,
      terms: team ? { editionId: team.edition.id } : null,
    };
  },

  async fulfil(ctx, tx, order, now) {
    const licenseId = order.licenseId as string;
    // A team refunded or revoked meanwhile cannot take the seats: the payment goes back like a duplicate one.
    const [team] = await tx
      .select({ purchaseId: purchases.id })
      .from(licenses)
      .innerJoin(purchases, eq(purchases.id, licenses.purchaseId))
      .where(
        and(eq(licenses.id, licenseId), eq(licenses.holderId, order.userId), isNull(purchases.refundedAt)),
      );
    const added = team && (await addSeats(tx, licenseId, order.seats));
    if (!team || !added)
      return {
        settled: false,
        reason: 'Seats for a team license that is no longer live',
        detail: { addsToLicenseId: licenseId },
      };
    return {
      settled: true,
      purchaseId: team.purchaseId,
      invoiceLine: await addSeatsKind.describe(tx, order),
      detail: { addsToLicenseId: licenseId, seatsAdded: order.seats, seats: added.seats },
      deliver: (invoice) => queueSeatsAddedEmail(ctx, tx, { order, seats: added.seats, invoice }, now),
    };
  },

  // Seats are licenses like a new one's: the same line.
  describe: (tx, order) => newLicense.describe(tx, order),

  // The seats go back; members already seated keep theirs until the owner or the operator frees them (the refund
  // says how many stand beyond the seats still paid). A refused order (its team refunded meanwhile) never added any.
  async undo(_ctx, tx, order, settled, now) {
    if (!settled) return { purchaseId: null, downloadLinksRevoked: 0 };
    const teamLicenseId = order.licenseId as string;
    const seats = await removeSeats(tx, teamLicenseId, order.seats);
    const used = (await seatsUsedOf(tx, [teamLicenseId], now)).get(teamLicenseId) ?? 1;
    return {
      purchaseId: null,
      downloadLinksRevoked: 0,
      ...(used > seats ? { seatsBeyondPaid: { teamLicenseId, seats, used } } : {}),
    };
  },
};
