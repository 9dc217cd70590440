import { randomInt } from 'node:crypto';

/** No 0/O, 1/I/L: a key read aloud or copied from a printout cannot be mistyped into another valid key. */
export const LICENSE_ALPHABET = '23456789ABCDEFGHJKMNPQRSTUVWXYZ';
const GROUPS = 4;
const GROUP_LENGTH = 5;

/** The shape of every license key: XXXXX-XXXXX-XXXXX-XXXXX over the unambiguous alphabet. */
export const LICENSE_KEY_PATTERN = new RegExp(
  `^[${LICENSE_ALPHABET}]{${GROUP_LENGTH}}(-[${LICENSE_ALPHABET}]{${GROUP_LENGTH}}){${GROUPS - 1}}$`,
);

function randomString(alphabet: string, length: number): string {
  let out = '';
  for (let i = 0; i < length; i++) out += alphabet.charAt(randomInt(alphabet.length));
  return out;
}

/** 20 characters from a 31-letter alphabet, crypto-random: about 99 bits, so guessing one is hopeless. */
export function generateLicenseKey(): string {
  return Array.from({ length: GROUPS }, () => randomString(LICENSE_ALPHABET, GROUP_LENGTH)).join('-');
}

const USERNAME_ALPHABET = '23456789abcdefghjkmnpqrstuvwxyz';
const PASSWORD_ALPHABET = `${LICENSE_ALPHABET}abcdefghjkmnpqrstuvwxyz`;

/** Sign-in details for a tool delivered as an account rather than a key. */
export function generateCredentials(): { username: string; password: string } {
  return {
    username: `pca-${randomString(USERNAME_ALPHABET, 8)}`,
    password: randomString(PASSWORD_ALPHABET, 16),
  };
}
