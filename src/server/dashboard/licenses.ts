import { type AdminLicense, maskLicenseKey, type TaxDocumentRef } from '../../shared/dashboard';
import type { TaxDocumentKind } from '../../shared/order-history';
import type { AppContext } from '../kernel/context';
import { licensesOf, type OperatorLicense } from '../licenses/operator';

/** The license and tax-document panels of an order and a customer, shaped for the dashboard. */

export const toAdminLicense = (license: OperatorLicense): AdminLicense => ({
  id: license.id,
  orderId: license.orderId,
  toolName: license.toolName,
  maskedKey: license.licenseKey === null ? null : maskLicenseKey(license.licenseKey),
  username: license.username,
  status: license.status,
  suspendedReason: license.suspendedReason,
  activationLimit: license.activationLimit,
  selfDeactivationsLeft: license.selfDeactivationsLeft,
  devices: license.devices.map((device) => ({
    id: device.id,
    name: device.name,
    activatedAt: device.activatedAt.toISOString(),
    lastSeenAt: device.lastSeenAt.toISOString(),
    offlineUntil: device.offlineUntil?.toISOString() ?? null,
  })),
  seats: license.seats,
  members: license.members.map((member) => ({
    memberId: member.memberId,
    email: member.email,
    name: member.name,
    isOwner: member.isOwner,
    joinedAt: member.joinedAt.toISOString(),
  })),
});

export async function adminLicensesOf(
  ctx: AppContext,
  of: { orderId: string } | { userId: string },
): Promise<AdminLicense[]> {
  return (await licensesOf(ctx, of)).map(toAdminLicense);
}

/** Where the operator opens an order's invoice or credit note. */
export const adminTaxDocumentPath = (orderId: string, kind: TaxDocumentKind) =>
  `/api/admin/orders/${orderId}/${kind}.pdf`;

export const taxDocumentRef = (
  orderId: string,
  found: { number: string; issuedAt: Date } | null,
  kind: TaxDocumentKind,
): TaxDocumentRef | null =>
  found && {
    number: found.number,
    issuedAt: found.issuedAt.toISOString(),
    pdfUrl: adminTaxDocumentPath(orderId, kind),
  };
