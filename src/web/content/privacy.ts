import { DOWNLOAD_LINK_VALID_HOURS } from '../../shared/constants';
import { GRIEVANCE_RESPONSE_DAYS, TAX_RECORD_RETENTION_MONTHS } from '../../shared/privacy';
import { RETENTION_DAYS } from '../../shared/retention';
import { SITE } from '../../shared/site';
import type { PolicyDocumentContent } from '../features/policies/types';
import { firmContact } from './policy-parts';

const mail = (address: string) => ({ text: address, href: `mailto:${address}` });

/** The Privacy Policy (docs/product.md §2, §9): ten numbered sections, written for a firm in India. */
export const PRIVACY_POLICY: PolicyDocumentContent = {
  title: 'Privacy Policy',
  intro: [
    `This Privacy Policy explains how ${SITE.legalName} (“${SITE.name}”, “we”, “us” or “our”) collects, uses, shares and protects personal data when you visit our website, contact us, create an account, buy a utility tool, or engage us for accounting, tax, business consultancy or web development services.`,
    'We process personal data in accordance with the Digital Personal Data Protection Act, 2023 (the “DPDP Act”), the Information Technology Act, 2000 and the Information Technology (Reasonable Security Practices and Procedures and Sensitive Personal Data or Information) Rules, 2011 (the “SPDI Rules”), to the extent each applies. By using our website or services you acknowledge this Policy; if you do not agree with it, please do not provide us with your personal data.',
  ],
  sections: [
    {
      title: 'Information We Collect',
      blocks: [
        {
          kind: 'paragraph',
          text: 'We collect only the information we need to respond to you, provide our services and run this website securely:',
        },
        {
          kind: 'list',
          items: [
            [
              { strong: 'Enquiries. ' },
              'When you use our contact form: your name, organisation (optional), email address, the topic of your enquiry and your message.',
            ],
            [
              { strong: 'Account details. ' },
              'When you register to buy utility tools: your full name, email address, mobile number with country code, and a password, which we store only as a salted one-way hash and never in readable form.',
            ],
            [
              { strong: 'Billing details. ' },
              'When you buy a tool: your billing address, state, country, GSTIN (optional) and the currency of the order. Card, UPI, net-banking and wallet details are entered directly with our payment gateway, Razorpay, and never reach or are stored on our servers; we receive only the payment reference, status and amount.',
            ],
            [
              { strong: 'Purchase records. ' },
              'The tools you have bought, order and payment identifiers, purchase dates, and the licence keys or credentials issued to you.',
            ],
            [
              { strong: 'Client engagement records. ' },
              'When you engage us for accounting, bookkeeping, tax or consultancy work: the financial records, tax identifiers (such as PAN and GSTIN), statements and other documents you share with us for that engagement, as described in our engagement letter.',
            ],
            [
              { strong: 'Technical information. ' },
              'Your IP address, browser type and the pages requested, recorded in our server logs for security and to prevent abuse, and an approximate country derived from your IP address so that prices are shown in the right currency. We do not use this information to follow you across other websites.',
            ],
          ],
        },
        {
          kind: 'paragraph',
          text: 'Our website is not directed at children. We do not knowingly collect personal data from anyone under 18 years of age; if you believe a child has given us personal data, please contact us and we will delete it.',
        },
      ],
    },
    {
      title: 'How We Use Your Information',
      blocks: [
        { kind: 'paragraph', text: 'We use personal data only for the purposes for which it was collected:' },
        {
          kind: 'list',
          items: [
            'to reply to your enquiries and provide the services you ask for;',
            'to create and secure your account, confirm your email address with one-time verification codes, and let you reset a forgotten password;',
            'to process purchases, issue tax invoices, deliver licence keys, credentials and download links by email, and send them again when you ask;',
            'when you are signed in and open the checkout for a tool but do not pay, to remember the tool and the coupon you entered and send you up to two checkout reminders (an hour and a day later) with a link back to that checkout — never once you have bought the tool, and never if you turn “Checkout reminders” off in your email preferences or with the link in each reminder;',
            'to carry out client engagements, including preparing accounts, returns and reports, and corresponding with tax and regulatory authorities where you have authorised us to act on your behalf;',
            'to send service messages such as verification codes, order confirmations, security notices and important changes to our terms — we send marketing emails only if you have opted in, and each one lets you opt out;',
            'to keep our website and systems secure, including limiting repeated attempts, detecting fraud and investigating misuse;',
            'to comply with our legal obligations, including accounting, tax and GST record-keeping, and to establish, exercise or defend legal claims.',
          ],
        },
        {
          kind: 'paragraph',
          text: 'We do not sell or rent your personal data, and we do not use it for automated decision-making that has legal or similarly significant effects on you.',
        },
      ],
    },
    {
      title: 'Legal Bases for Processing',
      blocks: [
        { kind: 'paragraph', text: 'We process your personal data on one of the following grounds:' },
        {
          kind: 'list',
          items: [
            [
              { strong: 'Consent. ' },
              'When you submit the contact form, register an account or otherwise give us your data for a stated purpose, we rely on your consent under section 6 of the DPDP Act. You may withdraw it at any time (see section 8); withdrawal does not affect processing carried out before it.',
            ],
            [
              { strong: 'Legitimate uses. ' },
              'Under section 7 of the DPDP Act we may process data that you have voluntarily provided for a specific purpose — such as buying a tool or engaging our services — for that purpose, unless you have told us you do not consent; and data whose processing is necessary to comply with a law, a judgment or order, or a lawful request from a government authority.',
            ],
            [
              { strong: 'Legal obligations. ' },
              'We keep books of account, invoices and tax records as required by the Income-tax Act, 1961, the Central Goods and Services Tax Act, 2017 and the Limited Liability Partnership Act, 2008.',
            ],
          ],
        },
        {
          kind: 'paragraph',
          text: 'Where the SPDI Rules apply to sensitive personal data or information, such as passwords and financial information, we collect it only with your consent, only for a lawful purpose connected with our services, and protect it with the security practices described in section 6.',
        },
      ],
    },
    {
      title: 'Information Sharing',
      blocks: [
        {
          kind: 'paragraph',
          text: 'We share personal data only with the following recipients, and only to the extent necessary:',
        },
        {
          kind: 'list',
          items: [
            [
              { strong: 'Razorpay, ' },
              'our payment gateway, to process payments and refunds. Razorpay handles your payment details under its own privacy policy and the security standards of the payment card industry.',
            ],
            [
              { strong: 'Our mail provider, ' },
              'which delivers our emails — verification codes, order confirmations, licence keys and download links — on our behalf.',
            ],
            [
              { strong: 'Hosting and infrastructure providers ' },
              'that run our website, database and backups under contractual confidentiality and security obligations.',
            ],
            [
              { strong: 'Authorities. ' },
              'Government, tax and regulatory authorities, courts or law-enforcement agencies, where the law requires it or where you have asked us to file or correspond on your behalf.',
            ],
            [
              { strong: 'Professional advisers, ' },
              'such as our auditors and legal counsel, who are bound by duties of confidentiality.',
            ],
            [
              { strong: 'A successor business, ' },
              'if we merge with or transfer our business to another firm, which will remain bound by this Policy for the data it receives.',
            ],
          ],
        },
        {
          kind: 'paragraph',
          text: 'Every service provider acts on our instructions, may use your data only to provide its service to us, and must keep it secure. Some providers may store or process data outside India; we transfer data only to countries not restricted by the Government of India under section 16 of the DPDP Act, and with safeguards appropriate to the data.',
        },
      ],
    },
    {
      title: 'Data Retention',
      blocks: [
        {
          kind: 'paragraph',
          text: 'We keep personal data only as long as we need it for the purpose for which it was collected, or as long as the law requires:',
        },
        {
          kind: 'list',
          items: [
            [
              { strong: 'Enquiries: ' },
              'for as long as needed to answer and follow up on them, and no longer than 24 months after our last correspondence unless they lead to an engagement.',
            ],
            [
              { strong: 'Accounts: ' },
              'for as long as your account is open. Because our tools carry lifetime validity, we keep the account and licence records needed to send your credentials again until you ask us to close your account.',
            ],
            [
              { strong: 'Tax and accounting records: ' },
              'invoices, payment records, books of account and the other records Indian tax laws require us to keep are retained for 8 years from the end of the relevant financial year, even if you close your account.',
            ],
            [
              { strong: 'Client engagement files: ' },
              'for the same 8-year period, or longer where a law, a pending assessment or a dispute requires it.',
            ],
            [
              { strong: 'Server logs and security records: ' },
              'up to 180 days, unless they are needed to investigate an incident.',
            ],
            [
              { strong: 'Verification codes and download links: ' },
              `stored only in hashed form and valid for a short time — download links expire after ${DOWNLOAD_LINK_VALID_HOURS} hours — and deleted once they expire, as are sign-in sessions.`,
            ],
            [
              { strong: 'Counters that limit repeated attempts: ' },
              `they hold the email address or network address an attempt came from, and are deleted ${RETENTION_DAYS.rateLimitCounters} days after they started counting.`,
            ],
            [
              { strong: 'Checkouts you opened: ' },
              'which tool, the coupon you entered and when, kept while your account exists and erased with it.',
            ],
            [
              { strong: 'Emails we send you: ' },
              `the text of an email is deleted ${RETENTION_DAYS.sentMail} days after it was sent; for an order we keep only the fact that it was sent, its subject and date.`,
            ],
            [
              { strong: 'Tax invoices and credit notes: ' },
              `kept for ${TAX_RECORD_RETENTION_MONTHS} months, as section 36 of the CGST Act requires, with the name and address they were issued to, also after you delete your account; everything else about a deleted account is erased at once.`,
            ],
            [
              { strong: 'Free trials: ' },
              'so that each person gets one free trial of a tool, we keep a keyed one-way hash of your email address together with the tool you tried, and a hash of the machine it ran on, also after you delete your account. They cannot be turned back into the address or the machine; they are used for nothing else.',
            ],
            [
              { strong: 'Team licenses: ' },
              'the owner of a team license sees the name, email address and devices of each member, and the address of each pending invitation (we keep an invitation until it is accepted, cancelled or expires after 14 days). If a member deletes their account, their seat returns to the team. If the owner deletes theirs, the team license and every member’s license from it are revoked, and the pending invitations are deleted.',
            ],
          ],
        },
        {
          kind: 'paragraph',
          text: 'When a retention period ends, we delete the data securely or anonymise it so that it can no longer identify you.',
        },
      ],
    },
    {
      title: 'Security',
      blocks: [
        {
          kind: 'paragraph',
          text: 'We follow reasonable security practices and procedures appropriate to the nature of the data, in line with Rule 8 of the SPDI Rules and section 8(5) of the DPDP Act, including:',
        },
        {
          kind: 'list',
          items: [
            'encryption of all traffic between your browser and our website with HTTPS (TLS);',
            'passwords stored only as salted, deliberately slow one-way hashes, and verification codes and download tokens stored only as hashes;',
            'HTTP-only session cookies, protection against cross-site request forgery, and limits on repeated login, verification and contact attempts;',
            'access to personal and client data restricted to the people who need it for their work, all bound by confidentiality obligations;',
            'regular backups and prompt installation of security updates.',
          ],
        },
        {
          kind: 'paragraph',
          text: 'No method of transmission or storage is completely secure. If a personal data breach occurs, we will take prompt steps to contain it and will inform the Data Protection Board of India, the affected users and, where required, CERT-In, as the law requires.',
        },
      ],
    },
    {
      title: 'Cookies & Tracking',
      blocks: [
        {
          kind: 'paragraph',
          text: 'Our website uses only essential cookies, which it needs to work securely:',
        },
        {
          kind: 'list',
          items: [
            [
              { strong: 'Session cookie: ' },
              'keeps you signed in after you log in. It is HTTP-only, so scripts cannot read it, and it ends when you sign out or after 14 days at the latest.',
            ],
            [
              { strong: 'CSRF cookie (csrftoken): ' },
              'a random token that protects your requests against cross-site request forgery. It contains no personal data and expires after one year.',
            ],
          ],
        },
        {
          kind: 'paragraph',
          text: 'We do not use advertising or analytics cookies, tracking pixels or social-media trackers, and we do not follow you across other websites. Because these cookies are strictly necessary, we do not ask for consent to set them; if you block them in your browser, signing in and buying tools will not work. When you pay, Razorpay’s checkout may set its own cookies, which are governed by Razorpay’s privacy policy.',
        },
      ],
    },
    {
      title: 'Your Rights',
      blocks: [
        {
          kind: 'paragraph',
          text: 'Subject to the DPDP Act and other applicable law, you have the right to:',
        },
        {
          kind: 'list',
          items: [
            'obtain a summary of the personal data we hold about you, the processing we carry out on it, and the identities of those we have shared it with;',
            'have inaccurate or misleading data corrected, incomplete data completed and out-of-date data updated;',
            'have your personal data erased once it is no longer needed for the purpose it was collected for, unless the law requires us to keep it (for example, tax records);',
            'withdraw your consent at any time, as easily as you gave it, after which we stop processing for that purpose within a reasonable time;',
            'nominate another person to exercise these rights on your behalf in the event of your death or incapacity;',
            'have your grievances addressed by our Grievance Officer and, if you remain dissatisfied, complain to the Data Protection Board of India.',
          ],
        },
        {
          kind: 'paragraph',
          text: [
            'To exercise any of these rights, write to us at ',
            mail(SITE.email),
            ' from the email address registered with us, or contact our Grievance Officer (section 10). We may ask you to verify your identity before acting on a request, and we will respond within one month. Please note that withdrawing consent or erasing account data may mean we can no longer provide some services, such as sending your tool credentials again.',
          ],
        },
        {
          kind: 'paragraph',
          text: [
            'If you have an account, you can exercise the most common of these rights yourself, at any time, on your ',
            { text: 'Account', href: '/account' },
            ' page: “Download my data” gives you a copy of everything we hold about your account, with whom we share it and why; “Delete my account” erases your personal data at once (tax invoices and credit notes are kept as the GST law requires); and your email preferences turn optional emails off, or on again, as easily as you gave consent. Profile details can be corrected there too.',
          ],
        },
      ],
    },
    {
      title: 'Updates to This Policy',
      blocks: [
        {
          kind: 'paragraph',
          text: 'We may update this Privacy Policy from time to time to reflect changes in our services, our practices or the law. The date at the top of this page shows when it was last revised.',
        },
        {
          kind: 'paragraph',
          text: 'If we make material changes, we will tell registered users by email or by a notice on this website before the changes take effect. Your continued use of the website or our services after that date means you accept the updated Policy.',
        },
      ],
    },
    {
      title: 'Contact & Grievance Officer',
      blocks: [
        {
          kind: 'paragraph',
          text: 'If you have a question, request or complaint about this Policy or about how we handle your personal data, please contact our Grievance Officer, appointed under Rule 5(9) of the SPDI Rules and acting as our point of contact under the DPDP Act:',
        },
        firmContact(SITE.email, { label: 'Grievance Officer', value: SITE.grievanceOfficer }),
        {
          kind: 'paragraph',
          text: 'We acknowledge every grievance within two working days and resolve it within one month of receiving it. Please include your name, the email address you used with us and a short description of your concern so that we can help you quickly.',
        },
        {
          kind: 'paragraph',
          text: `The Grievance Officer answers every grievance within ${GRIEVANCE_RESPONSE_DAYS} days of receiving it at the latest, as the Digital Personal Data Protection Rules, 2025 require.`,
        },
      ],
    },
  ],
};
