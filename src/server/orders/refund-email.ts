import type { Currency } from '../../shared/constants';
import { formatSubunits } from '../../shared/money';
import { SITE } from '../../shared/site';
import { toolLabel } from '../licenses/delivery-email';
import { type EmailBlock, type RenderedEmail, renderEmail } from '../mail/layout';

export type RefundEmailInput = {
  customerName: string;
  toolName: string;
  device: string | null;
  amount: number;
  currency: Currency;
  razorpayPaymentId: string;
  refundId: string | null;
  reason: string | null;
  /** False when the order was a second payment for a tool the buyer still owns through another order. */
  endsPurchase: boolean;
  /** The credit note attached to the notice, when the order had a tax invoice. */
  creditNote?: { number: string; invoiceNumber: string };
};

/** The customer's notice that their money is on its way back. */
export function renderRefundEmail(input: RefundEmailInput): RenderedEmail {
  const label = toolLabel(input.toolName, input.device);
  const blocks: EmailBlock[] = [
    {
      kind: 'paragraph',
      text: `Hello ${input.customerName}, we have refunded your payment for ${label}.`,
    },
    {
      kind: 'details',
      rows: [
        ['Tool', label],
        ['Amount refunded', formatSubunits(input.amount, input.currency)],
        ['Payment reference', input.razorpayPaymentId],
        ...(input.refundId ? [['Refund reference', input.refundId] as [string, string]] : []),
        ...(input.reason ? [['Reason', input.reason] as [string, string]] : []),
        ...(input.creditNote
          ? [
              [
                'Credit note',
                `${input.creditNote.number} for invoice ${input.creditNote.invoiceNumber} (attached)`,
              ] as [string, string],
            ]
          : []),
      ],
    },
    {
      kind: 'paragraph',
      text: 'Razorpay returns the money to the card, account or wallet you paid with; banks usually show it within 5 to 7 working days.',
    },
  ];
  if (input.endsPurchase) {
    blocks.push({
      kind: 'paragraph',
      text: 'The license and the download links for this tool no longer work, and it no longer appears in My Tools.',
    });
  }
  blocks.push({
    kind: 'paragraph',
    text: `Questions? Reply to ${SITE.supportEmail} or call ${SITE.phone}.`,
  });
  return renderEmail({ subject: `Refund for your ${label}`, heading: 'Your refund is on its way', blocks });
}
