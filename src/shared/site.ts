/**
 * The firm's details, in one place. Pages, the footer, the chat button, emails and JSON-LD all read from here,
 * so changing the phone number is a one-line change.
 */
export const SITE = {
  name: 'Pinkcity Advisors',
  legalName: 'Pinkcity Advisors LLP',
  shortName: 'Pinkcity',
  tagline:
    'Strategic consulting that cuts costs and raises profitability — accounting, tax and technology under one roof.',
  phone: '+91 98290 12345',
  phoneHref: 'tel:+919829012345',
  email: 'hello@pinkcityadvisors.in',
  supportEmail: 'support@pinkcityadvisors.in',
  grievanceOfficer: 'Ritika Sharma',
  address: {
    line1: '3rd Floor, Ganpati Plaza, MI Road',
    city: 'Jaipur',
    region: 'Rajasthan',
    postalCode: '302001',
    country: 'India',
    countryCode: 'IN',
  },
  chat: {
    /** Digits only, as wa.me expects. */
    number: '919829012345',
    defaultMessage: 'Hello! I have a question about your services.',
    homeMessage: 'Hi! I would like to know more about your services.',
  },
  dashboardProductUrl: 'https://insights.pinkcityadvisors.in',
} as const;

export function formatAddress(separator = ', '): string {
  const a = SITE.address;
  return [a.line1, `${a.city}, ${a.region} ${a.postalCode}`, a.country].join(separator);
}

export function chatLink(message: string): string {
  return `https://wa.me/${SITE.chat.number}?text=${encodeURIComponent(message)}`;
}
