import { createHmac, randomBytes } from 'node:crypto';
import { mkdir, readFile, rename, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { type Licensed, licensedFrom } from './entitlements';
import {
  checkPayload,
  type LicenseFilePayload,
  type LicenseFileRefusal,
  type PublicKey,
  readSignedPayload,
} from './license-file';

/**
 * A computer that never goes online (docs/license-api.md, "Computers without internet"). The tool makes a request
 * (one line of text, or a file), the buyer takes it to My Tools on a computer that has internet (or emails it to
 * the shop), and brings the response file back. From then on the tool checks that file, without the network, until
 * it ends. Giving the license up removes the file and shows a deactivation code, which frees the seat on My Tools.
 *
 * Nothing here calls the network: the class has no server address.
 */

/** This client's version, which a request names (the shop's operator sees it). */
export const CLIENT_VERSION = '1.0.0';
/** The request format: its prefix and version, then base64url of its UTF-8 JSON. */
const REQUEST_PREFIX = 'PCA-OFFLINE-1.';
const REQUEST_MAX_CHARS = 1000;
/** Requests waiting for their response; making one more forgets the oldest. */
const PENDING_MAX = 5;
const FINGERPRINT = /^[A-Za-z0-9._:-]{16,128}$/;
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;
const CONTROL = /\p{C}/u;
/** Crockford's base32: no I, L, O or U, which read as other characters. */
const CODE_ALPHABET = '0123456789ABCDEFGHJKMNPQRSTVWXYZ';

/** A request this machine made and has not had answered. */
type PendingRequest = { nonce: string; toolId: string; fingerprint: string; createdAt: string };

/** What the tool keeps between a request and its response, and while it runs on the response. */
export type OfflineState = {
  requests: PendingRequest[];
  /** The response in use, with what its request named. */
  license?: { file: string; toolId: string; fingerprint: string; nonce: string };
};

/** Where the state is kept; `offlineStateFile` keeps it in a file, a tool may keep it anywhere else it trusts. */
export type OfflineStore = {
  load(): Promise<OfflineState | undefined>;
  save(state: OfflineState): Promise<void>;
};

/** The state as a JSON file readable by this user only, written whole and renamed into place. */
export function offlineStateFile(file: string): OfflineStore {
  return {
    async load() {
      try {
        return JSON.parse(await readFile(file, 'utf8')) as OfflineState;
      } catch (error) {
        if ((error as NodeJS.ErrnoException).code === 'ENOENT') return undefined;
        throw error;
      }
    },
    async save(state) {
      await mkdir(path.dirname(file), { recursive: true });
      const temporary = `${file}.${process.pid}.${randomBytes(4).toString('hex')}`;
      await writeFile(temporary, JSON.stringify(state), { mode: 0o600 });
      await rename(temporary, file);
    },
  };
}

/** Why a response (or the stored one) cannot be used: a license file's reasons and the request's. */
export type OfflineRefusal =
  | LicenseFileRefusal
  /** A license file from the license API, not a response to an activation request. */
  | 'not-offline'
  /** Not the answer to any request this machine made (or to the one its license came from). */
  | 'unknown-request'
  /** No response has been loaded on this machine, or its license was given up. */
  | 'not-activated';

/** What to tell the person at the computer, for each refusal. */
export const OFFLINE_REFUSALS: Record<OfflineRefusal, string> = {
  malformed: 'This is not a response file from the shop, or it is incomplete.',
  'unknown-key': 'This response was signed with a key this version of the tool does not know.',
  'bad-signature': 'This response file was changed after the shop signed it.',
  'wrong-fingerprint': 'This response is for another computer.',
  'wrong-tool': 'This response is for another tool.',
  'not-active': 'This license is not active.',
  expired: 'This response file has ended: make a new request and bring its response.',
  'not-offline': 'This is a license file, not the response to an activation request.',
  'unknown-request': 'This response answers a request made elsewhere, not one made on this computer.',
  'not-activated': 'This computer has not been activated without internet.',
};

export type OfflineCheck =
  | {
      valid: true;
      /** `trial` runs until `endsAt` like an active license; buying needs a new request. */
      status: 'active' | 'trial';
      /** The edition and entitlements the license grants (`license.hasEntitlement('ocr')`). */
      license: Licensed;
      /** When the response file ends: the tool needs a new response by then. */
      endsAt: string;
      payload: LicenseFilePayload;
    }
  | { valid: false; reason: OfflineRefusal; message: string; payload?: LicenseFilePayload };

const refused = (reason: OfflineRefusal, payload?: LicenseFilePayload): OfflineCheck => ({
  valid: false,
  reason,
  message: OFFLINE_REFUSALS[reason],
  ...(payload ? { payload } : {}),
});

/**
 * The deactivation code of an activation: HMAC-SHA256 with the key its response carried, over its id, the first
 * 80 bits in Crockford's base32, shown in groups of four. Only that response's holder can make it; the shop keeps
 * its keyed hash and frees the seat once.
 */
function deactivationCode(deactivationKey: string, activationId: string): string {
  const mac = createHmac('sha256', Buffer.from(deactivationKey, 'base64url'))
    .update(`pinkcity offline deactivation\n${activationId}`)
    .digest();
  let bits = 0;
  let value = 0;
  let code = '';
  for (const byte of mac.subarray(0, 10)) {
    value = (value << 8) | byte;
    bits += 8;
    while (bits >= 5) {
      bits -= 5;
      code += CODE_ALPHABET[(value >> bits) & 31];
    }
  }
  return code.replace(/(.{4})(?=.)/g, '$1-');
}

export type OfflineActivationOptions = {
  /** The public keys shipped with the tool (GET /api/licenses/public-keys at build time). */
  publicKeys: readonly PublicKey[];
  store: OfflineStore;
  /** The clock (for tests); the machine's own by default. */
  now?: () => Date;
};

/** Activation of this computer without internet: the request, the response, the start check and giving it up. */
export class OfflineActivation {
  private readonly now: () => Date;

  constructor(private readonly options: OfflineActivationOptions) {
    this.now = options.now ?? (() => new Date());
  }

  /**
   * The request to take to My Tools: one line of at most 1,000 characters (short enough for a QR code), to show,
   * copy or save as a file as it is. It names the tool, this machine and a random nonce, and holds no license key.
   * Throws RangeError for a fingerprint or name the shop would refuse.
   */
  async createOfflineRequest(machine: {
    toolId: string;
    fingerprint: string;
    name?: string;
  }): Promise<string> {
    if (!UUID.test(machine.toolId)) throw new RangeError('toolId must be the tool id (a UUID)');
    if (!FINGERPRINT.test(machine.fingerprint)) {
      throw new RangeError(
        'fingerprint must be 16 to 128 characters of letters, digits, ".", "_", ":" or "-"',
      );
    }
    const name = machine.name?.trim() || undefined;
    if (name !== undefined && ([...name].length > 64 || CONTROL.test(name))) {
      throw new RangeError('name must be at most 64 printable characters');
    }
    const pending: PendingRequest = {
      nonce: randomBytes(16).toString('base64url'),
      toolId: machine.toolId.toLowerCase(),
      fingerprint: machine.fingerprint,
      createdAt: this.now().toISOString(),
    };
    const content = {
      v: 1,
      toolId: pending.toolId,
      fingerprint: pending.fingerprint,
      ...(name ? { name } : {}),
      client: CLIENT_VERSION,
      nonce: pending.nonce,
      createdAt: pending.createdAt,
    };
    const text = `${REQUEST_PREFIX}${Buffer.from(JSON.stringify(content), 'utf8').toString('base64url')}`;
    // Cannot happen with the rules above (at most about 770 characters); a request is never sent longer.
    if (text.length > REQUEST_MAX_CHARS) throw new RangeError('the request is longer than 1,000 characters');
    const state = await this.state();
    await this.options.store.save({ ...state, requests: [...state.requests, pending].slice(-PENDING_MAX) });
    return text;
  }

  /**
   * Loads the response file the buyer brought back, checked without the network: the shop's signature, an answer
   * to a request made here (its nonce), for this machine and tool, and not ended. Kept only if all hold; a later
   * response (a renewal) replaces the earlier one.
   */
  async activateOffline(responseText: string): Promise<OfflineCheck> {
    const signed = readSignedPayload(responseText.trim(), this.options.publicKeys);
    if (!signed.valid) return refused(signed.reason);
    const { payload } = signed;
    if (!payload.offline) return refused('not-offline', payload);
    const state = await this.state();
    const { nonce } = payload.offline;
    const request =
      state.requests.find((each) => each.nonce === nonce) ??
      // The same response (or another copy of its request's answer) loaded again.
      (state.license?.nonce === nonce ? state.license : undefined);
    if (!request) return refused('unknown-request', payload);
    const check = this.checked(payload, request);
    if (!check.valid) return check;
    await this.options.store.save({
      requests: state.requests.filter((each) => each.nonce !== nonce),
      license: { file: responseText.trim(), toolId: request.toolId, fingerprint: request.fingerprint, nonce },
    });
    return check;
  }

  /**
   * What the tool runs at start: the stored response, checked again (signature, request, machine, end). Give the
   * machine's fingerprint as computed now, so a file copied to another computer does not run there.
   */
  async checkOfflineLicense(options: { fingerprint?: string } = {}): Promise<OfflineCheck> {
    const { license } = await this.state();
    if (!license) return refused('not-activated');
    const signed = readSignedPayload(license.file, this.options.publicKeys);
    if (!signed.valid) return refused(signed.reason);
    if (signed.payload.offline?.nonce !== license.nonce) return refused('unknown-request', signed.payload);
    return this.checked(signed.payload, {
      ...license,
      fingerprint: options.fingerprint ?? license.fingerprint,
    });
  }

  /**
   * Gives this computer's license up: removes the response and returns the deactivation code to show (XXXX-XXXX-
   * XXXX-XXXX), which the buyer enters on My Tools to free the seat. Throws when nothing is activated here.
   */
  async deactivateOffline(): Promise<string> {
    const state = await this.state();
    const signed = state.license && readSignedPayload(state.license.file, this.options.publicKeys);
    if (!signed?.valid || !signed.payload.offline) throw new Error(OFFLINE_REFUSALS['not-activated']);
    const code = deactivationCode(signed.payload.offline.deactivationKey, signed.payload.activationId);
    await this.options.store.save({ requests: state.requests });
    return code;
  }

  private async state(): Promise<OfflineState> {
    return (await this.options.store.load()) ?? { requests: [] };
  }

  private checked(
    payload: LicenseFilePayload,
    request: { toolId: string; fingerprint: string },
  ): OfflineCheck {
    const check = checkPayload(payload, {
      fingerprint: request.fingerprint,
      toolId: request.toolId,
      now: this.now(),
    });
    if (!check.valid) return refused(check.reason, check.payload);
    return {
      valid: true,
      status: payload.status === 'trial' ? 'trial' : 'active',
      license: licensedFrom(payload),
      endsAt: payload.refreshBefore,
      payload,
    };
  }
}
