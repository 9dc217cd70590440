import { Gauge, Handshake, type IconNode, Lightbulb, ShieldCheck } from 'lucide';
import { CLAIMS } from '../../shared/constants';
import { SITE } from '../../shared/site';

/**
 * The text of the Our Team page (docs/product.md §2), kept as data so it can be edited without touching
 * markup.
 */

export type TeamStat = { value: string; label: string };
export type TeamGroup = {
  id: 'accounting' | 'web';
  name: string;
  summary: string;
  focus: string[];
};
export type CoreValue = { title: string; text: string; icon: IconNode };

export const TEAM_HERO = {
  eyebrow: `The people of ${SITE.name}`,
  title: 'Our Team',
  lead: `A Jaipur team of accounting, finance and web professionals who look after your business as carefully as their own — with ${CLAIMS.combinedExperience} years of combined experience behind every engagement.`,
} as const;

export const TEAM_STATS: TeamStat[] = [
  { value: CLAIMS.founderExperience, label: 'years of founder experience' },
  { value: CLAIMS.teamExperience, label: 'years of experience across our team' },
  { value: CLAIMS.combinedExperience, label: 'years of combined experience' },
  { value: CLAIMS.clientSuccessRate, label: 'client success rate' },
];

export const VISION = {
  title: 'Vision & Leadership',
  paragraphs: [
    `${SITE.name} was founded on a simple belief: small and growing businesses deserve the same financial clarity and strategic advice that large companies take for granted. Our founder brings ${CLAIMS.founderExperience} years of experience in accounting, taxation and business advisory, working with owner-managed businesses, start-ups and investment entities in India and abroad.`,
    'That experience shapes how we lead. Every engagement has a senior person accountable for it, every recommendation is explained in plain language, and every deadline is tracked well before it becomes urgent.',
    'Our vision is to be the partner our clients call first — for their books, their tax filings, their fundraising plans and their presence online — and to earn that place by being dependable, year after year.',
  ],
  principles: [
    'A senior professional accountable for every client',
    'Advice in plain language, with the numbers to back it',
    'Deadlines planned ahead, not met at the last minute',
  ],
} as const;

export const PROFESSIONALS = {
  title: 'Experienced Professionals',
  lead: 'Two specialist teams work side by side, so a client who needs clean books and a new website deals with one firm, one point of contact and one standard of care.',
  groups: [
    {
      id: 'accounting',
      name: 'Accounting & Finance Team',
      summary: `Our accounting and finance professionals bring ${CLAIMS.teamExperience} years of hands-on experience in bookkeeping, reporting and compliance. They keep the books of operating companies and investment vehicles alike, prepare tax filings in India and the United States, and build the forecasts that founders take to their investors.`,
      focus: [
        'Fund and corporate accounting for SPVs, private equity, funds of funds and family offices',
        'Bookkeeping, month-end close and financial reporting',
        'GST compliance and tax preparation, including US forms 1065, 1120 and K-1s',
        'Business plans, financial forecasts, fundraising support and outsourced CFO services',
      ],
    },
    {
      id: 'web',
      name: 'Web Development Team',
      summary:
        'Our designers and developers build websites and applications that are fast, accessible and easy to run. They start from your business goals — who needs to find you, what they should be able to do, and how the site will earn its keep — and the same team builds the desktop utility tools sold in our store.',
      focus: [
        'UX and UI design grounded in how your customers actually work',
        'Business websites and e-commerce stores',
        'Web and mobile app development',
        'Search engine optimisation and performance tuning',
      ],
    },
  ] satisfies TeamGroup[],
} as const;

export const CORE_VALUES: { title: string; lead: string; values: CoreValue[] } = {
  title: 'Our Core Values',
  lead: 'Four commitments guide how we work with every client, whatever the size of the engagement.',
  values: [
    {
      title: 'Trust & Integrity',
      icon: ShieldCheck,
      text: 'We keep your financial records and plans strictly confidential, give honest advice even when it is not what you hoped to hear, and charge what we quoted.',
    },
    {
      title: 'Efficiency',
      icon: Gauge,
      text: 'Clear checklists, shared calendars and sensible automation mean filings go in on time, reports arrive when promised and your team spends less time chasing paperwork.',
    },
    {
      title: 'Innovation',
      icon: Lightbulb,
      text: 'We use modern cloud accounting, dashboards and our own software to give you faster, clearer information — and when the right tool does not exist, we build it.',
    },
    {
      title: 'Client Partnership',
      icon: Handshake,
      text: 'We measure our success by yours: a named point of contact, regular check-ins and advice that looks beyond the next deadline to where your business is heading.',
    },
  ],
};

export const TEAM_CTA = {
  title: 'Let’s talk about your business',
  text: 'Tell us where you are today and where you want to be. We will suggest a practical first step — with no obligation.',
  button: 'Contact Us',
} as const;
