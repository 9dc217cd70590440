/**
 * What the home page says below its first screen: the About, Services and Products sections and the tools shop
 * teaser (docs/product.md §2, §3). It loads with those sections' code, when the visitor comes near them.
 */
import {
  Calculator,
  ChartPie,
  CodeXml,
  FileStack,
  type IconNode,
  LayoutDashboard,
  RefreshCw,
  Scissors,
  Shrink,
  TrendingUp,
} from 'lucide';
import { CLAIMS } from '../../shared/constants';
import { SITE } from '../../shared/site';
import aboutApproach from '../features/home/art/about-approach.svg?no-inline';
import aboutExperience from '../features/home/art/about-experience.svg?no-inline';
import aboutFinance from '../features/home/art/about-finance.svg?no-inline';
import aboutTeam from '../features/home/art/about-team.svg?no-inline';
import aboutWhy from '../features/home/art/about-why.svg?no-inline';
import productBiDashboard from '../features/home/art/product-bi-dashboard.svg?no-inline';
import productPdfTools from '../features/home/art/product-pdf-tools.svg?no-inline';
import serviceBusinessAccounting from '../features/home/art/service-business-accounting.svg?no-inline';
import serviceFundAccounting from '../features/home/art/service-fund-accounting.svg?no-inline';
import servicePlanning from '../features/home/art/service-planning.svg?no-inline';
import serviceWebDevelopment from '../features/home/art/service-web-development.svg?no-inline';

export type SectionIntroContent = { eyebrow: string; title: string; text: string };

/** The eyebrow, heading and lead paragraph that open the About, Services and Products sections. */
export const SECTION_INTROS: Record<'about' | 'services' | 'products', SectionIntroContent> = {
  about: {
    eyebrow: 'About us',
    title: 'A Jaipur firm with the experience of a much larger one',
    text: 'Accounting, finance and technology people who answer their phones. Hover over, tap or tab to a card to read more.',
  },
  services: {
    eyebrow: 'Services',
    title: 'What we do for our clients',
    text: 'Four practices, one team: we keep your books, file your taxes, plan your growth and build the website that brings in the next customer.',
  },
  products: {
    eyebrow: 'Products',
    title: 'Software we build and support',
    text: 'The same care we bring to client work, packaged as products you can use today.',
  },
};

/** `image`: URL of the card's 320×220 picture, an SVG file (docs/decisions/019-illustrations-as-files.md). */
export type AboutCard = { id: string; title: string; text: string; image: string };

export const ABOUT_CARDS: readonly AboutCard[] = [
  {
    id: 'team',
    title: 'The Team',
    text: `Chartered accountants, finance professionals and web developers working together from our office on MI Road, ${SITE.address.city}. Every client gets one dedicated point of contact who knows their books, their deadlines and their goals — never a ticket number.`,
    image: aboutTeam,
  },
  {
    id: 'accounting-finance',
    title: 'Accounting & Finance Stuff',
    text: 'From daily bookkeeping and GST returns to fund accounting for SPVs and family offices, we keep your numbers accurate, reconciled and audit-ready. Monthly reports arrive on time and in plain language, so every decision rests on facts.',
    image: aboutFinance,
  },
  {
    id: 'experience',
    title: 'Our Experience',
    text: `${CLAIMS.combinedExperience} years of combined experience: our founder brings ${CLAIMS.founderExperience} years in accounting, tax and business advisory, and our team ${CLAIMS.teamExperience} years across Indian and US compliance, fund administration and software delivery. Most problems you bring us, we have solved before.`,
    image: aboutExperience,
  },
  {
    id: 'approach',
    title: 'Our Approach',
    text: 'We first learn how your business earns and spends, then fix the processes behind the numbers. Clear scope, agreed timelines and a short weekly update: you always know what we are doing, what it costs and what comes next.',
    image: aboutApproach,
  },
  {
    id: 'why-us',
    title: 'Why Choose Us?',
    text: `A ${CLAIMS.clientSuccessRate} client success rate, transparent fees and one partner for accounting, tax, planning and technology. Your data stays confidential, your filings stay on time, and we judge our work by the costs we cut and the profit you keep.`,
    image: aboutWhy,
  },
];

export type ServiceCard = {
  id: string;
  title: string;
  summary: string;
  bullets: readonly string[];
  icon: IconNode;
  /** Classes for the icon badge: each service has its own colour. */
  colorClasses: string;
  /** URL of the card's 480×320 background picture. */
  image: string;
};

/** Spec §3: the four services, titles and bullets exactly as specified. */
export const SERVICE_CARDS: readonly ServiceCard[] = [
  {
    id: 'fund-accounting',
    title: 'Fund Accounting',
    summary:
      'Books, investor reporting and tax filings for investment vehicles and the entities that manage them.',
    bullets: [
      'SPVs and Private Equity',
      'FOFs and Family Offices',
      'Corporate Accounting',
      'GP and Managing Entity (QB)',
      'Tax Prep (1065, 1120, K1s etc)',
    ],
    icon: ChartPie,
    colorClasses: 'bg-accent-400 text-brand-900',
    image: serviceFundAccounting,
  },
  {
    id: 'business-accounting',
    title: 'Business Accounting',
    summary: 'Accurate, compliant books and reports for growing companies, handled end to end.',
    bullets: [
      'Accounting Outsourcing',
      'Bookkeeping',
      'Financial Reporting',
      'Tax Compliance',
      'GST Compliance',
    ],
    icon: Calculator,
    colorClasses: 'bg-sky-300 text-brand-900',
    image: serviceBusinessAccounting,
  },
  {
    id: 'business-financial-planning',
    title: 'Business & Financial Planning',
    summary: 'The numbers and the story you need to raise capital and plan the years ahead with confidence.',
    bullets: [
      'Pitch Deck / Business Plan',
      'Fundraise',
      'Financial Forecasts',
      'Personal Financial Planning',
      'Outsourced CFO',
    ],
    icon: TrendingUp,
    colorClasses: 'bg-amber-300 text-brand-900',
    image: servicePlanning,
  },
  {
    id: 'web-development',
    title: 'Web Development',
    summary:
      'Fast, accessible websites and apps that load quickly, rank well and turn visitors into customers.',
    bullets: [
      'UX / UI Design',
      'E-commerce Website',
      'APP Development',
      'SEO Optimization',
      'Website development',
    ],
    icon: CodeXml,
    colorClasses: 'bg-teal-300 text-brand-900',
    image: serviceWebDevelopment,
  },
];

export type ProductCard = {
  id: string;
  title: string;
  /** A few words shown on the card before it is hovered. */
  tagline: string;
  description: string;
  icon: IconNode;
  colorClasses: string;
  /** URL of the card's 480×300 picture. */
  image: string;
  link: string;
  isComingSoon: boolean;
};

/** Spec §2 "Products section": neither product is coming soon. */
export const PRODUCT_CARDS: readonly ProductCard[] = [
  {
    id: 'insights-dashboard',
    title: `${SITE.shortName} Insights`,
    tagline: 'Business intelligence dashboard platform',
    description:
      'A business intelligence dashboard platform that connects to your accounting and sales data and turns it into live dashboards: cash flow, receivables, margins by product and branch, and budget against actuals. Share read-only views with partners and investors, get alerts when a number moves, and stop rebuilding the same spreadsheet every month.',
    icon: LayoutDashboard,
    colorClasses: 'bg-brand-100 text-brand-800',
    image: productBiDashboard,
    link: SITE.dashboardProductUrl,
    isComingSoon: false,
  },
  {
    id: 'pdf-utility-tools',
    title: 'PDF Utility Tools',
    tagline: 'Desktop apps for Windows and macOS',
    description:
      'Licensed desktop tools for Windows and macOS that handle everyday PDF work — merging, splitting, compressing and converting — on your own computer, so your documents are never uploaded anywhere. Pay once for lifetime validity, activate with the license key we email you, and download again whenever you need to.',
    icon: FileStack,
    colorClasses: 'bg-accent-100 text-accent-700',
    image: productPdfTools,
    link: '/utility-tools',
    isComingSoon: false,
  },
];

/** The utility-tools shop teaser below the products. */
export const TOOLS_PROMO = {
  eyebrow: 'Utility Tools Shop',
  title: 'Desktop PDF tools, licensed for life',
  text: 'Work on confidential documents without uploading them anywhere. Our utility tools run on your own Windows PC or Mac, are paid for once, and arrive with a license key by email minutes after payment.',
  points: [
    'Lifetime validity — no subscription',
    'License key and download link emailed right after payment',
    'Prices in INR or USD, chosen for your location',
  ],
  platforms: ['Windows', 'macOS'],
  tools: [
    { label: 'Merge', icon: FileStack, colorClasses: 'bg-accent-400 text-brand-900' },
    { label: 'Split', icon: Scissors, colorClasses: 'bg-sky-300 text-brand-900' },
    { label: 'Compress', icon: Shrink, colorClasses: 'bg-amber-300 text-brand-900' },
    { label: 'Convert', icon: RefreshCw, colorClasses: 'bg-teal-300 text-brand-900' },
  ],
  cta: 'Browse utility tools',
  href: '/utility-tools',
} as const;
