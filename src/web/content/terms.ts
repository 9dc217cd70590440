import { DOWNLOAD_LINK_VALID_HOURS } from '../../shared/constants';
import { SITE } from '../../shared/site';
import type { PolicyDocumentContent } from '../features/policies/types';
import { firmContact, PROFESSIONAL_SERVICE_REFUNDS } from './policy-parts';

const mail = (address: string) => ({ text: address, href: `mailto:${address}` });

/**
 * The Terms and Conditions (docs/product.md §2, §9): fifteen numbered sections. The §9 policy statements —
 * the liability cap, upfront payment and refund rules, written cancellation, governing law and jurisdiction —
 * are stated here.
 */
export const TERMS: PolicyDocumentContent = {
  title: 'Terms and Conditions',
  intro: [
    `These Terms and Conditions (“Terms”) govern your use of this website and of the services and products offered by ${SITE.legalName} (“${SITE.name}”, “we”, “us” or “our”), a firm based in ${SITE.address.city}, ${SITE.address.region}, India. Please read them carefully before using the website, buying a utility tool or engaging us.`,
  ],
  sections: [
    {
      title: 'Acceptance of Terms',
      blocks: [
        {
          kind: 'paragraph',
          text: 'By accessing or using our website, creating an account, buying a utility tool or engaging us for any service, you agree to be bound by these Terms and by our Privacy Policy. If you accept these Terms on behalf of a company or other organisation, you confirm that you are authorised to bind it. If you do not agree, please do not use the website or our services.',
        },
        {
          kind: 'paragraph',
          text: 'You must be at least 18 years old and competent to contract under the Indian Contract Act, 1872 to create an account, make a purchase or engage our services.',
        },
      ],
    },
    {
      title: 'Services We Offer',
      blocks: [
        { kind: 'paragraph', text: 'We provide the following services and products:' },
        {
          kind: 'list',
          items: [
            [
              { strong: 'Fund accounting: ' },
              'accounting for SPVs and private equity, funds of funds and family offices, corporate accounting, general partner and managing entity accounting, and tax preparation (such as US forms 1065, 1120 and K-1s).',
            ],
            [
              { strong: 'Business accounting: ' },
              'accounting outsourcing, bookkeeping, financial reporting, tax compliance and GST compliance.',
            ],
            [
              { strong: 'Business and financial planning: ' },
              'pitch decks and business plans, fundraising support, financial forecasts, personal financial planning and outsourced CFO services.',
            ],
            [
              { strong: 'Web development: ' },
              'UX and UI design, e-commerce websites, app development, search engine optimisation and website development.',
            ],
            [
              { strong: 'Utility tools: ' },
              'desktop software for Windows and macOS, licensed through this website with lifetime validity.',
            ],
          ],
        },
        {
          kind: 'paragraph',
          text: 'The scope, deliverables, timelines and fees of each professional engagement are set out in a written proposal, engagement letter or statement of work (an “Engagement Document”). Where an Engagement Document conflicts with these Terms, the Engagement Document prevails for that engagement. Information on this website is general in nature and is not professional advice for your situation until we have agreed in writing to act for you.',
        },
      ],
    },
    {
      title: 'User Obligations',
      blocks: [
        { kind: 'paragraph', text: 'When you use our website and services, you agree:' },
        {
          kind: 'list',
          items: [
            'to give accurate, current and complete information, including when you register and at checkout, and to keep it up to date;',
            'to keep your password confidential and tell us promptly about any unauthorised use of your account — you are responsible for activity under your account;',
            'not to use the website for any unlawful, fraudulent or harmful purpose, or in breach of the Information Technology Act, 2000;',
            'not to attempt to gain unauthorised access to our systems, interfere with the website’s security or operation, or send automated requests that place an unreasonable load on it;',
            'not to copy, share, resell, sub-license, reverse engineer or decompile any utility tool, or circumvent its licensing, except to the extent the law expressly permits;',
            'not to upload or send material that is unlawful, defamatory, infringing or obscene, or that contains malicious code.',
          ],
        },
      ],
    },
    {
      title: 'Intellectual Property',
      blocks: [
        {
          kind: 'paragraph',
          text: `The website and its content — including text, graphics, logos, illustrations, design and layout — and the software of our utility tools are owned by or licensed to ${SITE.name} and are protected by Indian and international copyright, trademark and other laws. You may view and print pages for your own non-commercial reference; any other use requires our prior written consent.`,
        },
        {
          kind: 'paragraph',
          text: 'Software tools are licensed, not sold. On full payment you receive a non-exclusive, non-transferable licence to install and use the tool you bought for your own personal or internal business purposes, with lifetime validity: the licence does not expire and no renewal fee is charged. We and our licensors keep ownership of the software and every right not expressly granted to you.',
        },
        {
          kind: 'paragraph',
          text: 'A computer you activate without internet from the My Tools page runs on a response file until the end date shown there (365 days at most, or a shorter period we set for the tool). Because that computer never contacts us, a refund, a suspension or the removal of a team seat cannot reach it before that date. A licence that is refunded, suspended or ended may not be used on it from then on, and you agree to remove the licence from that computer; the tool then shows a deactivation code that frees its seat.',
        },
        {
          kind: 'paragraph',
          text: 'Deliverables we create for you in a professional engagement, such as reports, financial statements or a website, become yours once they are paid for in full. Our pre-existing materials, templates, tools and know-how remain ours, and we license them to you to the extent needed to use the deliverables; third-party components remain subject to their own licences.',
        },
      ],
    },
    {
      title: 'Client Responsibilities',
      blocks: [
        {
          kind: 'paragraph',
          text: 'Good results depend on good information. For every engagement, you agree:',
        },
        {
          kind: 'list',
          items: [
            'to provide complete, accurate and timely records, documents, access and explanations, and to tell us promptly about any change that may affect our work;',
            'that you remain responsible for your business decisions and for reviewing and approving returns, statements and other deliverables before they are filed or published;',
            'to keep the originals of your records — the copies we receive are held for the engagement and for the retention periods described in our Privacy Policy;',
            'for web development, to supply content, branding material and feedback within the agreed timelines, and to confirm that you hold the rights to any material you ask us to use;',
            'that our timelines depend on receiving what we need from you: delays on your side may move delivery dates, and statutory interest, late fees or penalties that arise from late or incomplete information are your responsibility.',
          ],
        },
      ],
    },
    {
      title: 'Payment Terms',
      blocks: [
        {
          kind: 'list',
          items: [
            'Fees for professional services are set out in the Engagement Document. Unless it states otherwise, invoices are payable within 15 days of the invoice date.',
            [
              { strong: 'Web development requires upfront payment: ' },
              'the full fee, or the advance stated in the Engagement Document, is payable before work begins.',
            ],
            'Utility tools are paid for in full at checkout. Prices are shown in Indian rupees (INR) or US dollars (USD) depending on your location, and the amount charged is the price confirmed by our server when you place the order.',
            'Online payments are processed by Razorpay. We never receive or store your card, UPI or bank details. Any fees your bank or card issuer charges for currency conversion or international payments are yours to bear.',
            [
              { strong: 'Buying as a business: ' },
              'a buyer with a GSTIN, or buying several seats, may instead ask for a proforma invoice at checkout. It is not a tax invoice; it holds the price and any coupon for 15 days and is paid by its Razorpay payment link or by bank transfer (NEFT/RTGS) to the account printed on it, in one or more parts. The tax invoice is issued, dated the day payment is complete, and the licence delivered once the full amount due has been received. An unpaid proforma expires after its validity date and the order is cancelled; money received after that is, at our choice, applied to the order or returned.',
            ],
            [
              { strong: 'Tax deducted at source (TDS): ' },
              'if you tell us at checkout that you deduct TDS under section 194J of the Income-tax Act, the amount due is the total less 10 % of the taxable value (the value excluding GST). The tax invoice still shows the full value. You must deposit the tax and give us the Form 16A certificate for it, which you can upload on the order page; if the TDS is not credited to our PAN, the amount deducted remains payable.',
            ],
            'Goods and Services Tax (GST) applies at the prevailing rate and is shown on your tax invoice. If you give us your GSTIN at checkout, it appears on the invoice.',
            'If an invoice remains unpaid after its due date, we may pause work on the engagement after giving you written notice.',
          ],
        },
      ],
    },
    {
      title: 'Refund and Cancellation',
      blocks: [
        {
          kind: 'list',
          items: [
            [
              { strong: 'Cancellation must be requested in writing. ' },
              'Email us at ',
              mail(SITE.email),
              ' with your name, the service or order concerned and the reason. A request made by phone or chat is not treated as a cancellation until it is confirmed in writing.',
            ],
            ...PROFESSIONAL_SERVICE_REFUNDS,
            [
              { strong: 'Utility tools: ' },
              `your licence key or credentials and download link are delivered by email right after payment. Download links are valid for ${DOWNLOAD_LINK_VALID_HOURS} hours, and you can have the credentials sent again at any time from the My Tools page. Because a delivered licence cannot be returned, tool purchases are not refundable, except that we refund any duplicate charge for the same order and any purchase of a tool that does not work as described and that we cannot fix within a reasonable time.`,
            ],
            'Approved refunds are paid to the original payment method through Razorpay, normally within 7 to 10 working days of approval.',
          ],
        },
      ],
    },
    {
      title: 'Disclaimer of Warranties',
      blocks: [
        {
          kind: 'paragraph',
          text: 'We perform our services with reasonable skill and care, in keeping with the professional standards that apply to them. Beyond that, and to the fullest extent permitted by law, the website, its content and our utility tools are provided “as is” and “as available”, without warranties of any kind, express or implied, including implied warranties of merchantability, fitness for a particular purpose and non-infringement.',
        },
        {
          kind: 'paragraph',
          text: 'We do not warrant that the website or any tool will be uninterrupted, error-free or free of harmful components, or that any particular financial, tax, funding or business outcome will be achieved. Statements about results, including our client success rate, describe past experience and do not guarantee future results. Tax and regulatory positions depend on your facts and on the law as interpreted by the authorities, which may change.',
        },
        {
          kind: 'paragraph',
          text: 'Antivirus software may occasionally warn about a newly released tool. Download our tools only from this website and activate them only with the licence key we email to you.',
        },
      ],
    },
    {
      title: 'Limitation of Liability',
      blocks: [
        {
          kind: 'paragraph',
          text: 'To the fullest extent permitted by law, our total liability to you for any claim arising out of or relating to a service or product, whether in contract, tort (including negligence) or otherwise, is limited to the amount you paid us for that service in the 6 months immediately before the event giving rise to the claim.',
        },
        {
          kind: 'paragraph',
          text: 'We are not liable for any indirect, incidental, special, consequential or punitive loss, or for any loss of profits, revenue, data, goodwill or business opportunity, even if we were told it might occur. Nor are we liable for loss caused by inaccurate or incomplete information you gave us, by your delay, or by events beyond our reasonable control.',
        },
        {
          kind: 'paragraph',
          text: 'Nothing in these Terms excludes or limits any liability that cannot be excluded or limited under Indian law, such as liability for fraud.',
        },
      ],
    },
    {
      title: 'Confidentiality',
      blocks: [
        {
          kind: 'paragraph',
          text: 'We treat all non-public information you share with us — financial records, business plans, customer data and trade secrets — as confidential. We use it only to provide our services, disclose it only to our people and service providers who need it and are bound by confidentiality obligations, and protect it with reasonable security measures.',
        },
        {
          kind: 'paragraph',
          text: 'These obligations do not apply to information that is or becomes public through no fault of ours, that we already lawfully held, or that we must disclose by law or on the order of a court or authority — in which case we will tell you, where we are allowed to. You, in turn, agree to keep our proposals, pricing and any non-public material we share with you confidential. Both sides’ confidentiality obligations continue after the engagement ends.',
        },
      ],
    },
    {
      title: 'Termination',
      blocks: [
        {
          kind: 'paragraph',
          text: 'You may stop using the website at any time and ask us to close your account. Either party may end a professional engagement by written notice as set out in the Engagement Document; fees for work performed up to the date of termination remain payable, and section 7 (Refund and Cancellation) applies.',
        },
        {
          kind: 'paragraph',
          text: 'We may suspend or close your account, restrict your access to the website or end an engagement if you materially breach these Terms, fail to pay overdue fees after notice, misuse a licence or act unlawfully. Licences for tools you have paid for in full continue after your account is closed, unless they are ended because you breached the licence terms.',
        },
        {
          kind: 'paragraph',
          text: 'Provisions that by their nature should survive termination — including Intellectual Property, Payment Terms, Limitation of Liability, Confidentiality and Governing Law — do so.',
        },
      ],
    },
    {
      title: 'Third-Party Services',
      blocks: [
        {
          kind: 'paragraph',
          text: 'Our website and services rely on, or link to, services run by others — including Razorpay for payments, our mail provider for email delivery, WhatsApp for chat, and external websites such as our business intelligence dashboard product. Those services are governed by their own terms and privacy policies, and we are not responsible for their content, availability or practices. Links to third-party websites are provided for convenience and do not imply endorsement.',
        },
      ],
    },
    {
      title: 'Governing Law',
      blocks: [
        {
          kind: 'paragraph',
          text: 'These Terms, and any dispute or claim arising out of or in connection with them, the website or our services, are governed by the laws of India. The courts at Jaipur, Rajasthan have exclusive jurisdiction.',
        },
        {
          kind: 'paragraph',
          text: 'Before starting proceedings, each party will try in good faith to resolve the dispute by discussion for at least 30 days after the other has received written notice of it.',
        },
      ],
    },
    {
      title: 'Changes to These Terms',
      blocks: [
        {
          kind: 'paragraph',
          text: 'We may revise these Terms from time to time. A revised version takes effect when it is published on this page with a new “Last updated” date; for material changes we will also notify registered users by email or by a notice on the website.',
        },
        {
          kind: 'paragraph',
          text: 'Engagements already under way continue on the terms agreed when they began unless both parties agree otherwise. Your continued use of the website or our services after a change takes effect means you accept the revised Terms.',
        },
      ],
    },
    {
      title: 'Contact Us',
      blocks: [
        {
          kind: 'paragraph',
          text: 'If you have any question about these Terms, or want to request a cancellation or refund, please contact us:',
        },
        firmContact(SITE.email),
        {
          kind: 'paragraph',
          text: [
            'You can also write to us through our ',
            { text: 'contact form', href: '/Contact' },
            '. For questions about your personal data, please see our ',
            { text: 'Privacy Policy', href: '/PrivacyPolicy' },
            '.',
          ],
        },
      ],
    },
  ],
};
