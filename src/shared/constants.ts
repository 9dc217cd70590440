/** Business constants (docs/product.md §9). One place; both sides import from here. */

export const TOAST_AUTO_CLOSE_MS = 5000;
export const TOAST_DRAG_PERCENT = 0.8;

export const SCROLL_OFFSETS = { home: -75, about: -40, services: -65, products: -65 } as const;
export const HERO_ARROW_OFFSET = 70;
export const SERVICES_ARROW_OFFSET = 65;
export const ABOUT_ARROW_OFFSET = 65;

export const DRAWER_TRANSITION_MS = 300;
export const SERVICE_CARD_MIN_HEIGHT_PX = 300;
export const BULLET_STAGGER_S = 0.1;
export const ABOUT_FLIP_INTERVAL_MS = 10_000;

export const TRUNCATE_WORDS = { products: 20, catalogue: 40, myTools: 30 } as const;

export const AUTH_POLL_INTERVAL_MS = 5000;
export const REDIRECT_AFTER_PAYMENT_MS = 2000;
export const SIGNUP_SUCCESS_RELOAD_MS = 2000;
export const RESET_SUCCESS_BACK_TO_LOGIN_MS = 3000;
export const NOTICE_HIDE_MS = 3000;
export const RESEND_COUNTDOWN_S = 120;

export const SIGNUP_CODE_LENGTH = 4;
export const RESET_CODE_LENGTH = 6;
export const PASSWORD_MIN_LENGTH = 6;
export const PASSWORD_MAX_LENGTH = 128;
export const INDIA_PHONE_DIGITS = 10;
export const PHONE_MIN_DIGITS = 5;
export const PHONE_MAX_DIGITS = 15;
export const DEFAULT_DIAL_CODE = '+91';

export const USD_TO_INR_FALLBACK_RATE = 75;
export const DOWNLOAD_LINK_VALID_HOURS = 3;
export const DOWNLOAD_LINK_VALID_MS = DOWNLOAD_LINK_VALID_HOURS * 60 * 60 * 1000;

export const CONTACT_TOPICS = ['Services', 'Products', 'Others'] as const;

export const CURRENCIES = ['INR', 'USD'] as const;
export type Currency = (typeof CURRENCIES)[number];

export const COPYRIGHT_YEAR = 2025;
export const POLICY_LAST_UPDATED = 'June 17, 2025';

export const CLAIMS = {
  clientSuccessRate: '99%',
  combinedExperience: '25+',
  founderExperience: '10+',
  teamExperience: '7+',
} as const;
