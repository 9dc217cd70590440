import type { Edition } from './entitlements';
import type { PublicKey } from './license-file';
import { type AvailableUpdate, downloadVerified, type ReleaseKey, type UpdateArtifact } from './updates';

export type LicenseCode =
  | 'VALID'
  /** A free trial, running until `expiresAt` (by the server's clock). */
  | 'TRIAL'
  /** The trial has ended: offer to buy the tool. */
  | 'EXPIRED'
  /** This machine already had a trial of the tool under another account. */
  | 'TRIAL_USED'
  | 'NOT_ACTIVATED'
  | 'LIMIT_REACHED'
  | 'DEACTIVATION_LIMIT'
  | 'SUSPENDED'
  | 'REVOKED'
  | 'WRONG_TOOL'
  | 'INVALID_KEY';

/** A license key, or the username and password of a tool delivered as credentials. */
export type Credentials = { licenseKey: string } | { username: string; password: string };

export type LicenseAnswer = {
  valid: boolean;
  code: LicenseCode;
  /** A sentence to show the user, where the code alone does not say what to do (DEACTIVATION_LIMIT). */
  message?: string;
  license?: {
    toolId: string;
    toolName: string;
    status: 'active' | 'trial' | 'suspended' | 'revoked';
    activationLimit: number;
    activationsUsed: number;
  };
  activation?: { id: string; fingerprint: string; name: string | null; activatedAt: string };
  licenseFile?: string;
  deactivated?: boolean;
  /** A trial's end (code TRIAL). */
  expiresAt?: string;
  /**
   * A floating license (activate, heartbeat, validate): this machine's seat is its own until then unless a
   * heartbeat renews it; send one every `heartbeatSeconds` (`startHeartbeats` in heartbeats.ts does).
   */
  leaseExpiresAt?: string;
  heartbeatSeconds?: number;
  /** Activate only: this machine's Sparkle / WinSparkle appcast and Velopack feed (docs/updates.md). */
  updates?: { appcastUrl: string; velopackUrl: string };
  /** VALID and TRIAL answers: the license's edition (null without editions) and what it unlocks; see `licensedFrom`. */
  edition?: Edition | null;
  entitlements?: string[];
  /** VALID and TRIAL: the end of the license's updates (null: every release). */
  updatesUntil?: string | null;
  /** SUSPENDED: why, to show the user. */
  reason?: string;
};

/** The update check's answer: validate's code, and the update to install, if there is one. */
export type UpdateCheckAnswer = { valid: boolean; code: LicenseCode; update: AvailableUpdate | null };

export type UpdateTarget = {
  platform: 'windows' | 'macos';
  arch: 'x64' | 'arm64' | 'x86' | 'universal';
  /** The running tool's own version (semantic versioning). */
  version: string;
  /** 'beta' also sees stable releases; default 'stable'. */
  channel?: 'stable' | 'beta';
  /** The running OS's version (10.0.19045, 13.4.1): releases needing a newer one are not offered. */
  osVersion?: string;
};

/** The server answered, but not with a license answer: bad input (400), rate limit (429), or a server fault. */
export class LicenseApiError extends Error {
  constructor(
    readonly status: number,
    readonly code: string,
    message: string,
    readonly retryAfterSeconds?: number,
    readonly fieldErrors?: Record<string, string>,
  ) {
    super(message);
    this.name = 'LicenseApiError';
  }
}

/** No answer at all: no network, DNS, a timeout, or something that is not the license server. */
export class LicenseServerUnreachableError extends Error {
  constructor(message: string, options?: { cause?: unknown }) {
    super(message, options);
    this.name = 'LicenseServerUnreachableError';
  }
}

export type LicenseClientOptions = {
  /** e.g. "https://pinkcityadvisors.in" */
  serverUrl: string;
  /** The tool's id in the shop: a key for another tool answers WRONG_TOOL. */
  toolId: string;
  /** Give up after this long and treat the server as unreachable (default 10 s). */
  timeoutMs?: number;
};

/** Calls the license API. Every method resolves with the server's answer or throws one of the two errors above. */
export class LicenseClient {
  private readonly baseUrl: string;
  readonly toolId: string;

  constructor(private readonly options: LicenseClientOptions) {
    this.baseUrl = options.serverUrl.replace(/\/+$/, '');
    this.toolId = options.toolId;
  }

  /** Takes a seat for this machine; the same machine again gets its activation back and uses no second seat. */
  activate(credentials: Credentials, fingerprint: string, name?: string): Promise<LicenseAnswer> {
    return this.post('activate', { ...credentials, toolId: this.toolId, fingerprint, name });
  }

  /** Checks this machine; a VALID answer carries a fresh license file to store. */
  validate(credentials: Credentials, fingerprint: string): Promise<LicenseAnswer> {
    return this.post('validate', { ...credentials, toolId: this.toolId, fingerprint });
  }

  /**
   * Renews this machine's lease on a floating license (validate on a per-device one). NOT_ACTIVATED: the lease is
   * gone (lapsed or freed); activate again, which answers LIMIT_REACHED while every seat is held.
   */
  heartbeat(credentials: Credentials, fingerprint: string): Promise<LicenseAnswer> {
    return this.post('heartbeat', { ...credentials, toolId: this.toolId, fingerprint });
  }

  /** Frees this machine's seat (for "Move license to another computer" in the tool). */
  deactivate(credentials: Credentials, fingerprint: string): Promise<LicenseAnswer> {
    return this.post('deactivate', { ...credentials, toolId: this.toolId, fingerprint });
  }

  /**
   * Asks whether a newer release exists for this platform; the license is checked as validate checks it, so a
   * revoked or suspended license gets its code and no update.
   */
  async checkForUpdate(
    credentials: Credentials,
    fingerprint: string,
    target: UpdateTarget,
  ): Promise<UpdateCheckAnswer> {
    return (await this.request('POST', '/api/licenses/update-check', {
      ...credentials,
      toolId: this.toolId,
      fingerprint,
      ...target,
    })) as UpdateCheckAnswer;
  }

  /**
   * Downloads an update's file to `destination`, keeping it only if its size, SHA-256 and Ed25519 signature match
   * (`releaseKeys`: shipped with the tool, from `releasePublicKeys()`); otherwise throws UpdateVerificationError
   * and leaves nothing behind.
   */
  downloadUpdate(
    artifact: UpdateArtifact,
    destination: string,
    releaseKeys: readonly ReleaseKey[],
  ): Promise<string> {
    return downloadVerified(artifact, destination, releaseKeys);
  }

  /** The keys that sign release files: the current one and those it replaced. Ship them inside the tool. */
  async releasePublicKeys(): Promise<ReleaseKey[]> {
    const body = (await this.request('GET', '/api/updates/public-key')) as ReleaseKey & {
      previous: ReleaseKey[];
    };
    return [
      { kid: body.kid, publicKey: body.publicKey },
      ...body.previous.map(({ kid, publicKey }) => ({ kid, publicKey })),
    ];
  }

  /** The keys that verify license files; fetch them when building the tool and ship them inside it. */
  async publicKeys(): Promise<PublicKey[]> {
    const body = (await this.request('GET', '/api/licenses/public-keys')) as { keys: PublicKey[] };
    return body.keys;
  }

  private async post(action: string, body: Record<string, unknown>): Promise<LicenseAnswer> {
    return (await this.request('POST', `/api/licenses/${action}`, body)) as LicenseAnswer;
  }

  private async request(
    method: 'GET' | 'POST',
    path: string,
    body?: Record<string, unknown>,
  ): Promise<unknown> {
    let response: Response;
    try {
      response = await fetch(`${this.baseUrl}${path}`, {
        method,
        headers: body ? { 'content-type': 'application/json', accept: 'application/json' } : {},
        body: body ? JSON.stringify(body) : undefined,
        signal: AbortSignal.timeout(this.options.timeoutMs ?? 10_000),
      });
    } catch (error) {
      throw new LicenseServerUnreachableError(`license server not reachable: ${(error as Error).message}`, {
        cause: error,
      });
    }
    let json: Record<string, unknown>;
    try {
      json = (await response.json()) as Record<string, unknown>;
    } catch (error) {
      throw new LicenseServerUnreachableError(`not a license server answer (HTTP ${response.status})`, {
        cause: error,
      });
    }
    if (response.ok) return json;
    const retryAfter = Number(response.headers.get('retry-after'));
    throw new LicenseApiError(
      response.status,
      typeof json.code === 'string' ? json.code : 'error',
      typeof json.message === 'string' ? json.message : `HTTP ${response.status}`,
      Number.isFinite(retryAfter) && retryAfter > 0 ? retryAfter : undefined,
      json.fieldErrors as Record<string, string> | undefined,
    );
  }
}
