import type { OrderKindName } from '../../../shared/orders';
import { addSeatsKind } from './add-seats';
import type { OrderKind, OrderRequest } from './kind';
import { newLicense } from './new-license';
import { renewalKind } from './renewal';
import { upgradeKind } from './upgrade';

const KINDS: Record<OrderKindName, OrderKind> = {
  'new-license': newLicense,
  'add-seats': addSeatsKind,
  upgrade: upgradeKind,
  renewal: renewalKind,
};

/** The kind a checkout request asks for: by the license it names, a new license when it names none. */
export function kindOfRequest(request: OrderRequest): OrderKind {
  if (request.upgradeLicenseId) return KINDS.upgrade;
  if (request.renewLicenseId) return KINDS.renewal;
  if (request.teamLicenseId) return KINDS['add-seats'];
  return KINDS['new-license'];
}

/** The module of an order's kind, for the steps every kind shares (settle, refund). */
export const kindOf = (order: { kind: OrderKindName }): OrderKind => KINDS[order.kind];
