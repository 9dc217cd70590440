import { randomBytes } from 'node:crypto';
import type { Readable } from 'node:stream';
import { and, eq, isNull } from 'drizzle-orm';
import { orders, tdsCertificates } from '../db/schema/orders';
import type { AppContext } from '../kernel/context';
import { DomainError } from '../kernel/domain-error';
import { type Actor, actorName, recordAudit } from '../operator/audit';
import { recordOrderEvent } from './events';

/**
 * The buyer's TDS certificate (Form 16A, issue 68): a PDF uploaded on the order's page for an order it deducts TDS
 * from, kept in storage with the order for the statutory period (account erasure keeps it, as it keeps invoices),
 * and checked by the operator against the amount deducted before the receivable is matched in Form 26AS.
 */

export const TDS_CERTIFICATE_MAX_BYTES = 5 * 1024 * 1024;

export const TDS_CERTIFICATE_MESSAGES = {
  notPdf: 'Form 16A must be a PDF file.',
  tooLarge: 'Form 16A must be at most 5 MB.',
  noTds: 'This order has no TDS to certify.',
  notOpen: 'A certificate can be added to an order awaiting payment or paid.',
  checked: 'The certificate of this order is already checked; write to us to replace it.',
  uploaded: 'Form 16A received. Thank you.',
} as const;

/** Reads an upload into memory up to the limit: a certificate is a few hundred kilobytes. */
async function readUpTo(stream: Readable, limit: number): Promise<Buffer> {
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of stream) {
    size += (chunk as Buffer).length;
    if (size > limit) {
      stream.resume();
      throw new DomainError('validation_error', TDS_CERTIFICATE_MESSAGES.tooLarge, {
        fieldErrors: { file: TDS_CERTIFICATE_MESSAGES.tooLarge },
      });
    }
    chunks.push(chunk as Buffer);
  }
  return Buffer.concat(chunks);
}

/**
 * Keeps the buyer's Form 16A for its order (its owner only: anyone else learns nothing). The file must be a PDF;
 * an earlier one not yet checked is replaced. The upload, its event and its audit entry (`buyer:self`) are one
 * transaction; the file is stored first and removed again if that transaction fails.
 */
export async function storeTdsCertificate(
  ctx: AppContext,
  input: { userId: string; orderId: string; fileName: string; stream: Readable },
): Promise<{ uploadedAt: string; fileName: string }> {
  const [order] = await ctx.db
    .select({ id: orders.id, status: orders.status, tdsAmount: orders.tdsAmount })
    .from(orders)
    .where(and(eq(orders.id, input.orderId), eq(orders.userId, input.userId)));
  if (!order) {
    input.stream.resume();
    throw new DomainError('not_found', 'There is no such order in your account.');
  }
  if (order.tdsAmount === 0) throw new DomainError('refused', TDS_CERTIFICATE_MESSAGES.noTds);
  if (order.status !== 'created' && order.status !== 'paid')
    throw new DomainError('refused', TDS_CERTIFICATE_MESSAGES.notOpen);
  const bytes = await readUpTo(input.stream, TDS_CERTIFICATE_MAX_BYTES);
  if (bytes.subarray(0, 5).toString('latin1') !== '%PDF-')
    throw new DomainError('validation_error', TDS_CERTIFICATE_MESSAGES.notPdf, {
      fieldErrors: { file: TDS_CERTIFICATE_MESSAGES.notPdf },
    });
  const fileName = input.fileName.split(/[/\\]/).pop()?.slice(0, 200) || 'Form16A.pdf';
  const stored = await ctx.storage.put(
    `tds-certificates/${order.id}/${randomBytes(8).toString('hex')}.pdf`,
    bytes,
  );
  const now = ctx.clock.now();
  try {
    const replaced = await ctx.db.transaction(async (tx) => {
      const [earlier] = await tx
        .select()
        .from(tdsCertificates)
        .where(eq(tdsCertificates.orderId, order.id))
        .for('update');
      if (earlier?.checkedAt) throw new DomainError('refused', TDS_CERTIFICATE_MESSAGES.checked);
      const values = {
        storageKey: stored.key,
        fileName,
        size: stored.size,
        sha256: stored.sha256,
        uploadedAt: now,
      };
      if (earlier) await tx.update(tdsCertificates).set(values).where(eq(tdsCertificates.orderId, order.id));
      else await tx.insert(tdsCertificates).values({ orderId: order.id, ...values });
      await recordOrderEvent(tx, order.id, 'tds-certificate-uploaded', { fileName, size: stored.size }, now);
      await recordAudit(
        tx,
        { kind: 'buyer', userId: input.userId },
        {
          action: 'order.tds-certificate',
          target: `order:${order.id}`,
          after: { fileName, sha256: values.sha256 },
        },
      );
      return earlier?.storageKey;
    });
    if (replaced) await ctx.storage.remove(replaced).catch(() => {});
  } catch (error) {
    await ctx.storage.remove(stored.key).catch(() => {});
    throw error;
  }
  return { uploadedAt: now.toISOString(), fileName };
}

/** The operator's check of an order's Form 16A (dashboard and command line), audited in its transaction. */
export async function markTdsCertificateChecked(
  ctx: Pick<AppContext, 'db' | 'clock'>,
  input: { orderId: string; actor: Actor },
): Promise<{ orderId: string; checkedAt: Date }> {
  const now = ctx.clock.now();
  return ctx.db.transaction(async (tx) => {
    const [checked] = await tx
      .update(tdsCertificates)
      .set({ checkedAt: now, checkedBy: actorName(input.actor) })
      .where(and(eq(tdsCertificates.orderId, input.orderId), isNull(tdsCertificates.checkedAt)))
      .returning({ fileName: tdsCertificates.fileName });
    if (!checked) {
      const [certificate] = await tx
        .select({ checkedAt: tdsCertificates.checkedAt })
        .from(tdsCertificates)
        .where(eq(tdsCertificates.orderId, input.orderId));
      throw new DomainError(
        'refused',
        certificate
          ? `The Form 16A of order ${input.orderId} was checked already.`
          : `Order ${input.orderId} has no Form 16A yet: the buyer uploads it on the order's page.`,
      );
    }
    await recordOrderEvent(tx, input.orderId, 'tds-certificate-checked', { fileName: checked.fileName }, now);
    await recordAudit(tx, input.actor, {
      action: 'order.tds-certificate-checked',
      target: `order:${input.orderId}`,
      after: { fileName: checked.fileName },
    });
    return { orderId: input.orderId, checkedAt: now };
  });
}

/** An order's Form 16A as stored, for its owner (with `userId`) or the operator. */
export async function readTdsCertificate(
  ctx: Pick<AppContext, 'db' | 'storage'>,
  input: { orderId: string; userId?: string },
): Promise<{ fileName: string; bytes: Buffer } | undefined> {
  const [row] = await ctx.db
    .select({ key: tdsCertificates.storageKey, fileName: tdsCertificates.fileName })
    .from(tdsCertificates)
    .innerJoin(orders, eq(orders.id, tdsCertificates.orderId))
    .where(
      and(
        eq(tdsCertificates.orderId, input.orderId),
        input.userId ? eq(orders.userId, input.userId) : undefined,
      ),
    );
  if (!row) return undefined;
  const bytes = await ctx.storage.read(row.key);
  return bytes ? { fileName: row.fileName, bytes } : undefined;
}
