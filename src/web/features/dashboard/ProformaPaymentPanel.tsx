import { useState } from 'react';
import type { AdminOrderDetail, AdminProforma } from '../../../shared/dashboard';
import { formatSubunits } from '../../../shared/money';
import { Button, FormError, TextField, useForm } from '../../components/form';
import { useAction } from '../../components/form/useAction';
import { dashboardApi, problem } from './api';
import { DangerForm } from './DangerForm';
import { AuthenticatorCodeField } from './fields';
import { Detail } from './OrderRecords';
import { Card, formatDateTime } from './ui';

const TRANSFER_FIELDS = ['amount', 'utr', 'date'] as const;
const RETURN_FIELDS = ['utr', 'code'] as const;

/** Today in India, the day a transfer the operator sees now is most likely dated. */
const todayInIndia = () => new Intl.DateTimeFormat('en-CA', { timeZone: 'Asia/Kolkata' }).format(new Date());

/**
 * An order paid against a proforma invoice (issue 68): its terms, what is due and received, each payment, and the
 * operator's actions, each audited by its operation: record a bank transfer as the bank statement shows it, and for
 * money that came after the proforma expired, settle the order with it or return it (a fresh code: money leaves).
 */
export function ProformaPaymentPanel({
  order,
  proforma,
  onChanged,
}: {
  order: AdminOrderDetail;
  proforma: AdminProforma;
  onChanged: (message: string) => void;
}) {
  const money = (paise: number) => formatSubunits(paise, order.currency);
  const transfer = useForm({
    initial: { amount: '', utr: '', date: todayInIndia() },
    fields: TRANSFER_FIELDS,
    idOf: (field) => `transfer-${field}`,
  });
  const recordTransfer = transfer.submit({
    send: async (values) => {
      onChanged((await dashboardApi.recordTransfer(order.id, values)).message);
      transfer.setValues({ amount: '', utr: '', date: todayInIndia() });
    },
    explain: (failure) => problem(failure),
  });
  const settle = useAction(problem);
  const [returning, setReturning] = useState(false);
  const giveBack = useForm({
    initial: { utr: '', code: '' },
    fields: RETURN_FIELDS,
    idOf: (field) => `return-${field}`,
  });
  const returnPayment = giveBack.submit({
    send: async (values) => {
      onChanged((await dashboardApi.returnLatePayment(order.id, values)).message);
      setReturning(false);
    },
    explain: (failure) => {
      giveBack.set('code', '');
      return problem(failure);
    },
  });
  const open = order.status === 'created';
  return (
    <Card title={`Proforma invoice ${proforma.number}`}>
      <dl>
        <Detail label="Document">
          <a href={proforma.pdfUrl} className="text-brand-700 underline underline-offset-2">
            Proforma PDF
          </a>
        </Detail>
        <Detail label="Issued">{formatDateTime(proforma.issuedAt)}</Detail>
        <Detail label="Valid until">{formatDateTime(proforma.validUntil)}</Detail>
        {proforma.expiredAt && <Detail label="Expired">{formatDateTime(proforma.expiredAt)}</Detail>}
        {proforma.paymentLinkUrl && (
          <Detail label="Payment link">
            <code className="break-all font-mono text-xs">{proforma.paymentLinkUrl}</code>
          </Detail>
        )}
        <Detail label="Amount due">{money(proforma.amountDue)}</Detail>
        <Detail label="Received">{money(proforma.received)}</Detail>
        {order.tdsAmount > 0 && (
          <Detail label="TDS (s. 194J)">
            {money(order.tdsAmount)}, PAN <code className="font-mono text-xs">{order.buyerPan}</code>
          </Detail>
        )}
      </dl>
      {proforma.receipts.length > 0 && (
        <ul className="mt-3 space-y-1 border-t border-slate-100 pt-3 text-sm">
          {proforma.receipts.map((receipt) => (
            <li key={`${receipt.method}-${receipt.reference}`}>
              {receipt.method === 'payment-link' ? 'Payment link' : 'Bank transfer'} {money(receipt.amount)}{' '}
              on {receipt.receivedOn} · <code className="font-mono text-xs">{receipt.reference}</code> · by{' '}
              {receipt.recordedBy}
              {receipt.returnedAt
                ? ` · returned ${formatDateTime(receipt.returnedAt)}${receipt.returnReference ? ` (${receipt.returnReference})` : ''}`
                : receipt.late
                  ? ' · late: decide below'
                  : ''}
            </li>
          ))}
        </ul>
      )}
      {(open || order.status === 'cancelled') && (
        <form
          onSubmit={recordTransfer}
          className="mt-4 space-y-3 border-t border-slate-100 pt-4"
          aria-label="Record a bank transfer"
        >
          <h3 className="text-sm font-semibold text-slate-900">Record a bank transfer</h3>
          <div className="grid gap-3 sm:grid-cols-3">
            <TextField {...transfer.field('amount')} label="Amount (₹)" inputMode="decimal" required />
            <TextField {...transfer.field('utr')} label="UTR" autoComplete="off" required />
            <TextField {...transfer.field('date')} label="Value date" type="date" required />
          </div>
          <FormError message={transfer.formError} />
          <Button type="submit" busy={transfer.busy === 'submit'}>
            Record transfer
          </Button>
        </form>
      )}
      {proforma.lateToDecide && (
        <div className="mt-4 space-y-3 border-t border-slate-100 pt-4">
          <p className="text-sm text-slate-800">
            Money came after the proforma expired (or the order was already paid): settle the order with it,
            or return it.
          </p>
          <div className="flex flex-wrap gap-2">
            {order.status === 'cancelled' && (
              <Button
                busy={settle.busy}
                onClick={() =>
                  void settle.run(async () =>
                    onChanged((await dashboardApi.settleLatePayment(order.id)).message),
                  )
                }
              >
                Settle the order with it
              </Button>
            )}
            {!returning && (
              <Button variant="danger" onClick={() => setReturning(true)}>
                Return it…
              </Button>
            )}
          </div>
          <FormError message={settle.error} />
          {returning && (
            <DangerForm
              label="Return the late payment"
              warning="A payment link's payment is refunded through Razorpay; for a transfer, send it back from the bank and give that transfer's UTR."
              onSubmit={returnPayment}
              form={giveBack}
              submitLabel="Return the payment"
              onCancel={() => setReturning(false)}
            >
              <TextField
                {...giveBack.field('utr')}
                label="UTR of the transfer back (for a bank transfer)"
                autoComplete="off"
              />
              <AuthenticatorCodeField {...giveBack.field('code')} required />
            </DangerForm>
          )}
        </div>
      )}
    </Card>
  );
}

/** The buyer's Form 16A for an order it deducts TDS from: open it, and mark it checked (audited). */
export function TdsCertificateCard({
  order,
  onChanged,
}: {
  order: AdminOrderDetail;
  onChanged: (message: string) => void;
}) {
  const check = useAction(problem);
  const certificate = order.tdsCertificate;
  return (
    <Card title="TDS certificate (Form 16A)">
      <dl>
        <Detail label="TDS">{formatSubunits(order.tdsAmount, order.currency)}</Detail>
        <Detail label="PAN">
          <code className="font-mono text-xs">{order.buyerPan}</code>
        </Detail>
        <Detail label="Form 16A">
          {certificate ? (
            <a href={certificate.pdfUrl} className="text-brand-700 underline underline-offset-2">
              {certificate.fileName}
            </a>
          ) : (
            'Not received yet'
          )}
        </Detail>
        {certificate && <Detail label="Received">{formatDateTime(certificate.uploadedAt)}</Detail>}
        {certificate?.checkedAt && (
          <Detail label="Checked">
            {formatDateTime(certificate.checkedAt)} by {certificate.checkedBy}
          </Detail>
        )}
      </dl>
      {certificate && !certificate.checkedAt && (
        <div className="mt-3">
          <Button
            busy={check.busy}
            onClick={() =>
              void check.run(async () =>
                onChanged((await dashboardApi.tdsCertificateChecked(order.id)).message),
              )
            }
          >
            Mark checked
          </Button>
          <FormError message={check.error} />
        </div>
      )}
    </Card>
  );
}
