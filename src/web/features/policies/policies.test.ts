import { describe, expect, it } from 'vitest';
import { RETENTION_DAYS } from '../../../shared/retention';
import { SITE } from '../../../shared/site';
import { PRIVACY_POLICY } from '../../content/privacy';
import { REFUND_POLICY } from '../../content/refund-policy';
import { SHIPPING_POLICY } from '../../content/shipping-policy';
import { TERMS } from '../../content/terms';
import { type PolicyDocumentContent, type RichText, sectionSlug } from './types';

const richToText = (text: RichText): string =>
  typeof text === 'string'
    ? text
    : text
        .map((part) => (typeof part === 'string' ? part : 'strong' in part ? part.strong : part.text))
        .join('');

/** Everything a reader sees in one section, as plain text. */
function sectionText(document: PolicyDocumentContent, title: string): string {
  const section = document.sections.find((candidate) => candidate.title === title);
  if (!section) throw new Error(`no section "${title}"`);
  return section.blocks
    .map((block) => {
      if (block.kind === 'paragraph') return richToText(block.text);
      if (block.kind === 'list') return block.items.map(richToText).join('\n');
      return block.rows.map((row) => `${row.label}: ${row.value}`).join('\n');
    })
    .join('\n');
}

describe('Privacy Policy content (docs/product.md §2, §9)', () => {
  it('has exactly the ten sections docs/product.md §2 names, in order', () => {
    expect(PRIVACY_POLICY.sections.map((section) => section.title)).toEqual([
      'Information We Collect',
      'How We Use Your Information',
      'Legal Bases for Processing',
      'Information Sharing',
      'Data Retention',
      'Security',
      'Cookies & Tracking',
      'Your Rights',
      'Updates to This Policy',
      'Contact & Grievance Officer',
    ]);
  });

  it('states the 8-year retention of Indian tax records and only essential cookies', () => {
    expect(sectionText(PRIVACY_POLICY, 'Data Retention')).toMatch(/Indian tax laws[^.]*retained for 8 years/);
    const cookies = sectionText(PRIVACY_POLICY, 'Cookies & Tracking');
    expect(cookies).toContain('only essential cookies');
    expect(cookies).toContain('csrftoken');
    expect(cookies).toContain('Session cookie');
  });

  it('quotes the pruning periods of the personal data the shop keeps from shared/retention', () => {
    const retention = sectionText(PRIVACY_POLICY, 'Data Retention');
    expect(retention).toContain(`deleted ${RETENTION_DAYS.sentMail} days after it was sent`);
    expect(retention).toContain(
      `deleted ${RETENTION_DAYS.rateLimitCounters} days after they started counting`,
    );
    expect(retention).toMatch(
      /Verification codes and download links: [^\n]*deleted once they expire, as are sign-in sessions/,
    );
  });

  it('names the grievance officer with the firm’s contact details', () => {
    const contact = sectionText(PRIVACY_POLICY, 'Contact & Grievance Officer');
    expect(contact).toContain(SITE.grievanceOfficer);
    expect(contact).toContain(SITE.email);
    expect(contact).toContain(SITE.phone);
    expect(contact).toContain(SITE.address.city);
  });
});

describe('Terms and Conditions content (docs/product.md §2, §9)', () => {
  it('has exactly the fifteen sections docs/product.md §2 names, in order', () => {
    expect(TERMS.sections.map((section) => section.title)).toEqual([
      'Acceptance of Terms',
      'Services We Offer',
      'User Obligations',
      'Intellectual Property',
      'Client Responsibilities',
      'Payment Terms',
      'Refund and Cancellation',
      'Disclaimer of Warranties',
      'Limitation of Liability',
      'Confidentiality',
      'Termination',
      'Third-Party Services',
      'Governing Law',
      'Changes to These Terms',
      'Contact Us',
    ]);
  });

  it('carries every §9 policy statement', () => {
    expect(sectionText(TERMS, 'Limitation of Liability')).toContain(
      'limited to the amount you paid us for that service in the 6 months',
    );
    expect(sectionText(TERMS, 'Payment Terms')).toContain('Web development requires upfront payment');
    const refunds = sectionText(TERMS, 'Refund and Cancellation');
    expect(refunds).toContain('refunds are partial and are available only if no work has started');
    expect(refunds).toContain('a processing fee may apply');
    expect(refunds).toContain(
      'Accounting, bookkeeping and tax services are non-refundable once processing begins',
    );
    expect(refunds).toContain('Cancellation must be requested in writing');
    expect(refunds).toContain('valid for 3 hours');
    expect(sectionText(TERMS, 'Intellectual Property')).toMatch(
      /tools are licensed, not sold\..*with lifetime validity/,
    );
    const law = sectionText(TERMS, 'Governing Law');
    expect(law).toContain('laws of India');
    expect(law).toContain('courts at Jaipur, Rajasthan have exclusive jurisdiction');
  });

  it('says a refund or suspension cannot reach a computer activated without internet (decision 061)', () => {
    expect(sectionText(TERMS, 'Intellectual Property')).toMatch(
      /activate without internet.*a refund, a suspension or the removal of a team seat cannot reach it before that date/,
    );
  });
});

describe('section anchors', () => {
  it('are unique, URL-safe slugs', () => {
    for (const document of [PRIVACY_POLICY, TERMS]) {
      const slugs = document.sections.map((section) => sectionSlug(section.title));
      expect(new Set(slugs).size).toBe(slugs.length);
      for (const slug of slugs) expect(slug).toMatch(/^[a-z0-9]+(-[a-z0-9]+)*$/);
    }
    expect(sectionSlug('Cookies & Tracking')).toBe('cookies-and-tracking');
  });
});

describe('Refund and Shipping policies (docs/product.md §12)', () => {
  it('states the refund rules of the Terms, how refunds are paid and the credit note', () => {
    const tools = sectionText(REFUND_POLICY, 'Utility Tools');
    expect(tools).toContain('Duplicate charges');
    expect(tools).toContain('does not work as described');
    expect(sectionText(REFUND_POLICY, 'Professional Services')).toContain(
      'non-refundable once processing begins',
    );
    expect(sectionText(REFUND_POLICY, 'How to Cancel or Ask for a Refund')).toContain(
      'Cancellation must be requested in writing',
    );
    expect(sectionText(REFUND_POLICY, 'Tax Invoices and Credit Notes')).toContain('credit note');
  });

  it('says delivery is by email with 3-hour links and that nothing is shipped', () => {
    expect(SHIPPING_POLICY.intro.join(' ')).toContain('we ship no physical goods');
    expect(sectionText(SHIPPING_POLICY, 'Download Links')).toContain('valid for 3 hours');
    expect(sectionText(SHIPPING_POLICY, 'Contact Us')).toContain(SITE.legalName);
  });
});
