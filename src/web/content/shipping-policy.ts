import { DOWNLOAD_LINK_VALID_HOURS } from '../../shared/constants';
import { SITE } from '../../shared/site';
import type { PolicyDocumentContent } from '../features/policies/types';
import { firmContact } from './policy-parts';

const mail = (address: string) => ({ text: address, href: `mailto:${address}` });

/**
 * The Shipping and Delivery Policy Razorpay asks a merchant to publish: everything this firm sells is delivered
 * electronically, so it says how and how fast, and that nothing is shipped.
 */
export const SHIPPING_POLICY: PolicyDocumentContent = {
  title: 'Shipping and Delivery Policy',
  lastUpdated: 'November 24, 2026',
  intro: [
    `${SITE.legalName} (“${SITE.name}”, “we”, “us”) sells licensed desktop utility tools and professional services. Everything we sell is delivered electronically: we ship no physical goods and charge nothing for delivery.`,
  ],
  sections: [
    {
      title: 'Utility Tools: Delivery by Email',
      blocks: [
        {
          kind: 'list',
          items: [
            'As soon as Razorpay confirms your payment — usually within a minute or two — we email the address of your account your license key or login credentials and a link to download the tool, together with your GST tax invoice.',
            'The tool appears on your My Tools page at the same moment, whether or not the email has arrived yet.',
            'We deliver to buyers anywhere in the world; there is no shipping address, and prices include everything you pay us.',
          ],
        },
      ],
    },
    {
      title: 'Download Links',
      blocks: [
        {
          kind: 'list',
          items: [
            `Each download link is valid for ${DOWNLOAD_LINK_VALID_HOURS} hours from the moment it is sent, and only for your account.`,
            'Your license has lifetime validity. Whenever you need the tool again, press “Get Credentials” on My Tools: we email your license key or credentials again with a fresh link.',
            'Opening an expired link shows a page that takes you back to My Tools.',
          ],
        },
      ],
    },
    {
      title: 'If Your Delivery Does Not Arrive',
      blocks: [
        {
          kind: 'list',
          items: [
            'Check your spam or junk folder for an email from us.',
            'Ask for the email again from My Tools with “Get Credentials”.',
            [
              'If it still does not arrive, write to ',
              mail(SITE.supportEmail),
              ' with the payment reference from your Razorpay receipt (it starts with “pay_”), and we will deliver it by another route.',
            ],
          ],
        },
      ],
    },
    {
      title: 'Professional Services',
      blocks: [
        {
          kind: 'paragraph',
          text: `Accounting, tax, consulting and web development work is delivered as agreed in your Engagement Document — by email, through shared online workspaces, or in person at our office in ${SITE.address.city}. Nothing is shipped.`,
        },
      ],
    },
    {
      title: 'Cancellations and Refunds',
      blocks: [
        {
          kind: 'paragraph',
          text: [
            'When an order can be cancelled or refunded is set out in our ',
            { text: 'Refund and Cancellation Policy', href: '/refund-policy' },
            '.',
          ],
        },
      ],
    },
    {
      title: 'Contact Us',
      blocks: [firmContact(SITE.supportEmail)],
    },
  ],
};
