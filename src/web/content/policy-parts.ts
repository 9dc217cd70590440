import { formatAddress, SITE } from '../../shared/site';
import type { ContactRow, PolicyBlock, RichText } from '../features/policies/types';

/**
 * The refund rules of the firm's professional services, as both the Refund Policy and the Terms state them: one text,
 * so the two documents cannot come to promise different things.
 */
export const PROFESSIONAL_SERVICE_REFUNDS: readonly RichText[] = [
  [
    { strong: 'Web development: ' },
    'refunds are partial and are available only if no work has started on your project; a processing fee may apply and is deducted from the refund. Once work has started — including discovery, design or development — the payment is not refundable.',
  ],
  [
    { strong: 'Accounting, bookkeeping and tax services ' },
    'are non-refundable once processing begins, because the work is carried out for you from that point.',
  ],
  [{ strong: 'Other consulting services: ' }, 'refunds, if any, are as stated in the Engagement Document.'],
];

/**
 * How to reach the firm at the end of a policy: its name, the policy's mailbox (`email`), phone and address, after
 * the person to write to where the policy names one (`person`).
 */
export const firmContact = (email: string, person?: ContactRow): PolicyBlock => ({
  kind: 'contact',
  rows: [
    ...(person ? [person] : []),
    { label: 'Firm', value: SITE.legalName },
    { label: 'Email', value: email, href: `mailto:${email}` },
    { label: 'Phone', value: SITE.phone, href: SITE.phoneHref },
    { label: 'Address', value: formatAddress() },
  ],
});
