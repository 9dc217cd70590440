import { CreditCard, FileText } from 'lucide';
import { formatSubunits } from '../../../shared/money';
import type { OrderDetail, OrderProforma } from '../../../shared/order-detail';
import { Icon } from '../../components/Icon';
import { formatDate } from '../../lib/dates';
import { Fact, Panel, when } from './Panel';

const METHODS: Record<OrderProforma['receipts'][number]['method'], string> = {
  'payment-link': 'Payment link',
  'bank-transfer': 'Bank transfer',
};

const STATE_TEXT: Record<OrderProforma['state'], string> = {
  awaiting: 'Awaiting payment',
  paid: 'Paid',
  expired: 'Expired unpaid: the order is cancelled',
};

/**
 * An order paid against a proforma invoice (issue 68): the proforma's PDF, until when it holds, what is due after
 * TDS, and, while it can be paid, the payment link and the firm's bank account; then each payment received.
 */
export function ProformaPanel({ order, proforma }: { order: OrderDetail; proforma: OrderProforma }) {
  const money = (subunits: number) => formatSubunits(subunits, order.currency);
  const awaiting = proforma.state === 'awaiting';
  return (
    <Panel title={awaiting ? 'Awaiting payment' : 'Proforma invoice'}>
      <a
        href={proforma.url}
        download
        className="inline-flex min-h-6 items-center gap-1.5 text-sm font-medium text-brand-700 underline underline-offset-2 hover:text-brand-900"
      >
        <Icon node={FileText} className="size-4 shrink-0" />
        Proforma invoice {proforma.number}
      </a>
      <dl className="mt-4 grid gap-x-6 gap-y-2 text-sm sm:grid-cols-2">
        <Fact label="State" value={STATE_TEXT[proforma.state]} />
        <Fact label="Issued" value={when(proforma.issuedAt)} />
        <Fact label="Valid until" value={formatDate(proforma.validUntil, 'dayInIndia')} />
        <Fact label="Amount due" value={money(order.amountDue)} />
        <Fact label="Received" value={money(proforma.received)} />
      </dl>
      {awaiting && proforma.paymentLinkUrl && (
        <a
          href={proforma.paymentLinkUrl}
          className="mt-5 inline-flex min-h-11 items-center gap-2 rounded-lg bg-brand-800 px-5 text-sm font-semibold text-white shadow-sm hover:bg-brand-700"
        >
          <Icon node={CreditCard} className="size-4" />
          Pay {money(order.amountDue - proforma.received)} online
        </a>
      )}
      {awaiting && proforma.bank && (
        <div className="mt-5">
          <h3 className="text-sm font-semibold text-brand-900">Or by bank transfer (NEFT/RTGS)</h3>
          <dl className="mt-2 grid gap-x-6 gap-y-2 text-sm sm:grid-cols-2">
            <Fact label="Account name" value={proforma.bank.accountName} />
            <Fact label="Account number" value={proforma.bank.accountNumber} mono />
            <Fact label="IFSC" value={proforma.bank.ifsc} mono />
            <Fact label="Bank" value={proforma.bank.bankName} />
            <Fact label="Reference" value={proforma.number} mono />
          </dl>
          <p className="mt-2 text-sm text-slate-600">
            Quote the reference; we record the transfer when it reaches us and the license follows.
          </p>
        </div>
      )}
      {proforma.receipts.length > 0 && (
        <ul className="mt-5 space-y-1 text-sm">
          {proforma.receipts.map((receipt) => (
            <li key={receipt.reference}>
              {METHODS[receipt.method]} {money(receipt.amount)} on{' '}
              {formatDate(`${receipt.receivedOn}T12:00:00+05:30`, 'dayInIndia')}{' '}
              <span className="font-mono text-[13px] text-slate-600">{receipt.reference}</span>
            </li>
          ))}
        </ul>
      )}
    </Panel>
  );
}
