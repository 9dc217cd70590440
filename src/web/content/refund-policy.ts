import { DOWNLOAD_LINK_VALID_HOURS } from '../../shared/constants';
import { SITE } from '../../shared/site';
import type { PolicyDocumentContent } from '../features/policies/types';
import { firmContact, PROFESSIONAL_SERVICE_REFUNDS } from './policy-parts';

const mail = (address: string) => ({ text: address, href: `mailto:${address}` });

/**
 * The Refund and Cancellation Policy Razorpay asks a merchant to publish. It says what section 7 of the Terms says
 * (docs/product.md §9: written cancellation, partial web-development refunds before work starts, no refunds once
 * accounting work begins), and adds how refunds of utility tools are paid and documented.
 */
export const REFUND_POLICY: PolicyDocumentContent = {
  title: 'Refund and Cancellation Policy',
  lastUpdated: 'November 24, 2026',
  intro: [
    `This policy explains when ${SITE.legalName} (“${SITE.name}”, “we”, “us”) cancels an order or refunds a payment, for the utility tools sold on this website and for our professional services.`,
    [
      'It forms part of our ',
      { text: 'Terms and Conditions', href: '/TermsAndConditions' },
      '; where the two differ, the Terms and Conditions apply.',
    ],
  ],
  sections: [
    {
      title: 'Utility Tools',
      blocks: [
        {
          kind: 'paragraph',
          text: `A utility tool is delivered the moment your payment is confirmed: your license key or credentials and a download link (valid for ${DOWNLOAD_LINK_VALID_HOURS} hours, and sent again whenever you ask from My Tools) arrive by email. Because a delivered license cannot be returned, tool purchases are not refundable, with these exceptions:`,
        },
        {
          kind: 'list',
          items: [
            [
              { strong: 'Duplicate charges. ' },
              'If you are charged twice for the same tool, we refund the second payment in full, automatically; you do not need to ask.',
            ],
            [
              { strong: 'A tool that does not work as described. ' },
              'If the tool does not do what its description says on your device, and we cannot fix it within a reasonable time, we refund the purchase in full.',
            ],
            [
              { strong: 'A payment that did not complete. ' },
              'If money left your account but your order was not confirmed, write to us with the payment reference: we either complete the order or refund the payment in full.',
            ],
          ],
        },
        {
          kind: 'paragraph',
          text: 'When a tool purchase is refunded, its license and download links stop working and it no longer appears in My Tools.',
        },
      ],
    },
    {
      title: 'Professional Services',
      blocks: [
        {
          kind: 'list',
          items: [...PROFESSIONAL_SERVICE_REFUNDS],
        },
      ],
    },
    {
      title: 'How to Cancel or Ask for a Refund',
      blocks: [
        {
          kind: 'paragraph',
          text: [
            'Cancellation must be requested in writing. Email us at ',
            mail(SITE.supportEmail),
            ' with your name, the email address of your account, the tool or service concerned, the payment reference from your receipt (it starts with “pay_”) and the reason. A request made by phone or chat is not treated as a cancellation until it is confirmed in writing.',
          ],
        },
        {
          kind: 'paragraph',
          text: 'We reply to every request and tell you whether a refund is approved and, if not, why.',
        },
      ],
    },
    {
      title: 'How Refunds Are Paid',
      blocks: [
        {
          kind: 'list',
          items: [
            'Approved refunds are paid to the original payment method — card, UPI, net banking or wallet — through Razorpay, normally within 7 to 10 working days of approval. We cannot pay a refund to a different account.',
            'A payment made in US dollars is refunded in US dollars. Any difference your bank or card issuer applies for currency conversion is outside our control.',
            'We email you when the refund is made, with its reference.',
          ],
        },
      ],
    },
    {
      title: 'Tax Invoices and Credit Notes',
      blocks: [
        {
          kind: 'paragraph',
          text: 'Every purchase comes with a GST tax invoice, attached to your purchase email and available from My Tools. When we refund a purchase we issue a credit note that refers to that invoice and reverses its value and tax; it is attached to the refund email and available from My Tools next to the invoice. If you gave us your GSTIN, the credit note carries it too, so your input tax credit can be adjusted.',
        },
      ],
    },
    {
      title: 'Contact Us',
      blocks: [firmContact(SITE.supportEmail)],
    },
  ],
};
