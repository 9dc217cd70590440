/**
 * Activating a computer that never goes online (issue 67, docs/decisions/061-offline-activation.md): the tool makes
 * a one-line request, a signed-in buyer takes it to My Tools, and the response file carries the license back. The
 * request and the deactivation code are written by the reference client (packages/license-client/src/offline.ts),
 * which keeps its own copy of these shapes: a tool cannot import the shop's code.
 */

/** What every request starts with: the format and its version, then base64url of its UTF-8 JSON. */
export const OFFLINE_REQUEST_PREFIX = 'PCA-OFFLINE-1.';
/** A request fits a QR code and a line of an email. */
export const OFFLINE_REQUEST_MAX_CHARS = 1000;

/** The deactivation code's alphabet (Crockford's base32: no I, L, O or U, which read as other characters). */
const CODE_ALPHABET = '0123456789ABCDEFGHJKMNPQRSTVWXYZ';
/** 16 characters of the alphabet (80 bits), shown in groups of four. */
export const DEACTIVATION_CODE_LENGTH = 16;

/**
 * A deactivation code as typed, in the form the server compares: capitals, without spaces or dashes, and the
 * characters Crockford's base32 reads as others (O as 0, I and L as 1). Undefined when it cannot be a code.
 */
export function normaliseDeactivationCode(typed: string): string | undefined {
  const code = typed
    .toUpperCase()
    .replace(/[\s-]+/g, '')
    .replace(/O/g, '0')
    .replace(/[IL]/g, '1');
  if (code.length !== DEACTIVATION_CODE_LENGTH) return undefined;
  return [...code].every((character) => CODE_ALPHABET.includes(character)) ? code : undefined;
}

export const OFFLINE_MESSAGES = {
  requestRequired: 'Paste the activation request the tool showed, or choose the request file it saved.',
  requestTooLong: `An activation request is one line of at most ${OFFLINE_REQUEST_MAX_CHARS} characters: paste only the line the tool showed.`,
  requestNotOne: `This is not an activation request. Paste the whole line the tool showed (it starts with ${OFFLINE_REQUEST_PREFIX}), or choose the request file it saved.`,
  requestDamaged:
    'This activation request is incomplete or damaged. Make a new one in the tool and paste all of it.',
  wrongTool: (toolName: string) =>
    `This request was made by another tool, not ${toolName}. Use the license of the tool that made it.`,
  floating:
    'This tool’s licenses are floating: a computer holds a seat only while it checks in with our server, so it cannot be activated without internet.',
  limitReached: (limit: number) =>
    `Every device of this license is in use (${limit} of ${limit}). Deactivate one first, then upload the request again.`,
  trialUsed: 'That computer has already had a free trial of this tool under another account.',
  trialEnded: 'This free trial has ended: buy the tool to activate computers with it.',
  codeRequired: 'Enter the deactivation code the tool showed.',
  codeMalformed: `A deactivation code is ${DEACTIVATION_CODE_LENGTH} letters and digits, shown by the tool as XXXX-XXXX-XXXX-XXXX.`,
  codeUnknown:
    'This deactivation code does not belong to a computer activated without internet on this license. Check it against what the tool shows.',
  codeUsed:
    'This code’s computer is already deactivated (the code was used, or the computer was freed another way): its seat is free.',
  codeAccepted: (name: string) =>
    `${name} is deactivated: its seat is free. A deactivation code does not count against your monthly deactivations.`,
} as const;

/**
 * A license file's download name: the tool's name as a slug, then what the file is. My Tools' "Download license
 * file" and the offline response (from the server, or saved by the browser from the JSON answer) are named so.
 */
export function licenseFileName(toolName: string, what: 'license' | 'activation-response'): string {
  const slug =
    toolName
      .toLowerCase()
      .replace(/[^a-z0-9]+/g, '-')
      .replace(/^-|-$/g, '') || 'tool';
  return `${slug}-${what}.json`;
}
