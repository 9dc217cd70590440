import { createPrivateKey, createPublicKey, randomBytes } from 'node:crypto';
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { z } from 'zod';
import { type FirmIdentity, parseFirmIdentity } from './firm';
import { parseS3Url } from './s3-url';

const optionalString = z
  .string()
  .trim()
  .transform((value) => (value === '' ? undefined : value))
  .optional();

/** scrypt's cost (log2 of N) for password hashes in production, and everywhere PASSWORD_HASH_COST does not lower it. */
export const PASSWORD_HASH_COST = 17;

const envSchema = z.object({
  NODE_ENV: z.enum(['development', 'production', 'test']).default('development'),
  PORT: z.coerce.number().int().min(0).max(65535).default(3000),
  HOST: z.string().default('0.0.0.0'),
  PUBLIC_URL: z.url().optional(),
  DATA_DIR: z.string().default('./data'),
  DATABASE_URL: optionalString.pipe(z.url({ protocol: /^postgres(ql)?$/ }).optional()),
  SMTP_URL: optionalString.pipe(z.url({ protocol: /^smtps?$/ }).optional()),
  MAIL_FROM: z.string().default('Pinkcity Advisors <no-reply@pinkcityadvisors.in>'),
  MAIL_TO_FIRM: optionalString,
  RAZORPAY_KEY_ID: optionalString,
  RAZORPAY_KEY_SECRET: optionalString,
  RAZORPAY_WEBHOOK_SECRET: optionalString,
  RAZORPAY_API_URL: optionalString.pipe(z.url().optional()),
  SESSION_SECRET: optionalString.pipe(z.string().min(32).optional()),
  LICENSE_SIGNING_KEY: optionalString,
  LICENSE_PREVIOUS_PUBLIC_KEYS: optionalString,
  RELEASE_SIGNING_KEY: optionalString,
  RELEASE_PREVIOUS_PUBLIC_KEYS: optionalString,
  DATA_SECRET_KEY: optionalString,
  DATA_PREVIOUS_SECRET_KEYS: optionalString,
  TRUST_PROXY: z
    .enum(['', '0', '1', 'true', 'false'])
    .default('')
    .transform((value) => value === '1' || value === 'true'),
  STORAGE_URL: optionalString.pipe(
    z
      .string()
      .refine((value) => {
        try {
          parseS3Url(value);
          return true;
        } catch {
          return false;
        }
      }, 'must be s3://BUCKET[/PREFIX]?endpoint=https://…&region=… (unset: files in DATA_DIR/files)')
      .optional(),
  ),
  METRICS_TOKEN: optionalString.pipe(z.string().min(16, 'must be at least 16 characters').optional()),
  LOG_LEVEL: z.enum(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent']).default('info'),
  SHUTDOWN_DRAIN_SECONDS: optionalString.pipe(
    z.coerce.number<string | undefined>().int().min(0).max(120).optional(),
  ),
  // The firm's tax identity is checked as a whole by parseFirmIdentity (cross-field: GSTIN against FIRM_STATE).
  FIRM_LEGAL_NAME: optionalString,
  FIRM_ADDRESS: optionalString,
  FIRM_GSTIN: optionalString,
  FIRM_STATE: optionalString,
  INVOICE_SAC: optionalString,
  INVOICE_PREFIX: optionalString,
  LUT_ARN: optionalString,
  FIRM_BANK_ACCOUNT: optionalString,
  FIRM_BANK_IFSC: optionalString,
  FIRM_BANK_NAME: optionalString,
  PASSWORD_HASH_COST: optionalString.pipe(
    z.coerce.number<string | undefined>().int().min(10).max(20).optional(),
  ),
  WEBHOOKS_ALLOW_LOOPBACK: z
    .enum(['', '0', '1', 'true', 'false'])
    .default('')
    .transform((value) => value === '1' || value === 'true'),
});

export type Config = {
  env: 'development' | 'production' | 'test';
  isProduction: boolean;
  port: number;
  host: string;
  publicUrl: string;
  dataDir: string;
  /** Tool files in an S3-compatible bucket; undefined keeps them in DATA_DIR/files. */
  storageUrl: string | undefined;
  databaseUrl: string | undefined;
  smtpUrl: string | undefined;
  mailFrom: string;
  mailToFirm: string | undefined;
  razorpay: {
    keyId: string;
    keySecret: string;
    webhookSecret: string | undefined;
    apiUrl: string | undefined;
    /** True when no keys are configured: the server runs its own Razorpay emulator. */
    emulated: boolean;
  };
  sessionSecret: string;
  licenseSigning: {
    /**
     * PKCS#8 PEM of the Ed25519 key that signs offline license files. Unset outside production: the licenses
     * feature then generates one into DATA_DIR on first use, like the session secret.
     */
    privateKeyPem: string | undefined;
    /** SPKI PEMs of earlier signing keys: files they signed still verify until they expire. */
    previousPublicKeyPems: string[];
  };
  /**
   * The Ed25519 key that signs release files (Sparkle's edSignature, the update check's signature) and the public
   * keys of earlier ones; its own key, apart from license files', so either can be rotated alone. Unset outside
   * production: generated into DATA_DIR on first use.
   */
  releaseSigning: { privateKeyPem: string | undefined; previousPublicKeyPems: string[] };
  /**
   * The key that hashes and seals secrets at rest (license keys, credential passwords), and the keys it replaced:
   * values sealed or hashed under those are re-done under the current key at start (data-secrets.ts). Unset
   * outside production: one is generated into DATA_DIR on first use, like the license signing key.
   */
  dataSecret: { key: Buffer | undefined; previousKeys: Buffer[] };
  trustProxy: boolean;
  /** The bearer token Prometheus sends for `GET /metrics`; undefined: no metrics route at all. */
  metricsToken: string | undefined;
  logLevel: string;
  /**
   * How long a server goes on answering after SIGTERM with `/api/ready` at 503, so a load balancer takes it out
   * before it stops listening (deploy/haproxy.cfg notices within 2 s). 5 s in production, none elsewhere: a
   * development server or a test's stops at once.
   */
  shutdownDrainMs: number;
  /** Supplier identity on tax invoices and credit notes; a specimen outside production. */
  firm: FirmIdentity;
  /**
   * Outgoing webhooks (decision 046): whether endpoints may be on loopback (127.0.0.0/8, ::1), for development and
   * tests only. Private, link-local and metadata addresses are always refused.
   */
  webhooks: { allowLoopback: boolean };
  /**
   * scrypt's cost for new password hashes, as log2 of N (docs/product.md §11): 17 unless PASSWORD_HASH_COST lowers
   * it, which the tests do (a hash at 17 is half a second of a core) and production refuses. A login rehashes a
   * password stored at another cost.
   */
  passwordHashCost: number;
};

export class ConfigError extends Error {
  constructor(readonly problems: string[]) {
    super(`Invalid configuration:\n${problems.map((problem) => `  - ${problem}`).join('\n')}`);
    this.name = 'ConfigError';
  }
}

/**
 * Parses the environment into a Config, listing every bad field at once.
 * In development the session secret is generated once and kept in DATA_DIR.
 */
export function loadConfig(env: NodeJS.ProcessEnv = process.env): Config {
  const parsed = envSchema.safeParse(env);
  const problems = parsed.success
    ? []
    : parsed.error.issues.map((issue) => `${issue.path.join('.')}: ${issue.message}`);
  // The cross-field rules read the raw values, so they are reported together with any malformed field.
  const raw = (name: string) => env[name]?.trim() || undefined;
  const isProduction = raw('NODE_ENV') === 'production';

  if (isProduction) {
    if (!raw('PUBLIC_URL')?.startsWith('https://'))
      problems.push('PUBLIC_URL: must be an https:// URL in production');
    if (!raw('SMTP_URL')) problems.push('SMTP_URL: required in production');
    if (!raw('RAZORPAY_KEY_ID')) problems.push('RAZORPAY_KEY_ID: required in production');
    if (!raw('RAZORPAY_KEY_SECRET')) problems.push('RAZORPAY_KEY_SECRET: required in production');
    if (!raw('RAZORPAY_WEBHOOK_SECRET')) problems.push('RAZORPAY_WEBHOOK_SECRET: required in production');
    if (!raw('SESSION_SECRET'))
      problems.push('SESSION_SECRET: required in production (at least 32 characters)');
    if (!raw('LICENSE_SIGNING_KEY'))
      problems.push('LICENSE_SIGNING_KEY: required in production (an Ed25519 private key, PKCS#8 PEM)');
    if (!raw('RELEASE_SIGNING_KEY'))
      problems.push('RELEASE_SIGNING_KEY: required in production (an Ed25519 private key, PKCS#8 PEM)');
    if (!raw('DATA_SECRET_KEY')) problems.push(`DATA_SECRET_KEY: required in production (${DATA_KEY_SHAPE})`);
    const hashCost = Number(raw('PASSWORD_HASH_COST') ?? PASSWORD_HASH_COST);
    if (hashCost < PASSWORD_HASH_COST)
      problems.push(
        `PASSWORD_HASH_COST: not below ${PASSWORD_HASH_COST} in production (a lower cost is for tests)`,
      );
    if (['1', 'true'].includes(raw('WEBHOOKS_ALLOW_LOOPBACK') ?? ''))
      problems.push(
        'WEBHOOKS_ALLOW_LOOPBACK: not allowed in production (webhooks never go to loopback there)',
      );
  }
  const dataKeyText = raw('DATA_SECRET_KEY');
  const dataKey = dataKeyText === undefined ? undefined : dataSecretKey(dataKeyText);
  if (dataKeyText !== undefined && !dataKey) problems.push(`DATA_SECRET_KEY: must be ${DATA_KEY_SHAPE}`);
  const previousDataKeys = (raw('DATA_PREVIOUS_SECRET_KEYS') ?? '')
    .split(/[\s,]+/)
    .filter(Boolean)
    .map(dataSecretKey);
  if (previousDataKeys.some((key) => !key))
    problems.push(`DATA_PREVIOUS_SECRET_KEYS: each must be ${DATA_KEY_SHAPE}, separated by commas`);
  const licenseSigning = signingSettings(
    raw,
    'LICENSE_SIGNING_KEY',
    'LICENSE_PREVIOUS_PUBLIC_KEYS',
    problems,
  );
  const releaseSigning = signingSettings(
    raw,
    'RELEASE_SIGNING_KEY',
    'RELEASE_PREVIOUS_PUBLIC_KEYS',
    problems,
  );
  const firm = parseFirmIdentity(raw, isProduction);
  problems.push(...firm.problems);
  const partialKeys = [raw('RAZORPAY_KEY_ID'), raw('RAZORPAY_KEY_SECRET')].filter(Boolean).length === 1;
  if (partialKeys) problems.push('RAZORPAY_KEY_ID and RAZORPAY_KEY_SECRET: set both or neither');
  if (!parsed.success || problems.length > 0 || !firm.identity) throw new ConfigError(problems);
  const e = parsed.data;

  const dataDir = path.resolve(e.DATA_DIR);
  const emulated = !e.RAZORPAY_KEY_ID;
  return {
    env: e.NODE_ENV,
    isProduction,
    port: e.PORT,
    host: e.HOST,
    publicUrl: (e.PUBLIC_URL ?? `http://localhost:${e.PORT}`).replace(/\/+$/, ''),
    dataDir,
    storageUrl: e.STORAGE_URL,
    databaseUrl: e.DATABASE_URL,
    smtpUrl: e.SMTP_URL,
    mailFrom: e.MAIL_FROM,
    mailToFirm: e.MAIL_TO_FIRM,
    razorpay: {
      keyId: e.RAZORPAY_KEY_ID ?? 'rzp_test_emulator',
      keySecret: e.RAZORPAY_KEY_SECRET ?? 'emulator_key_secret',
      webhookSecret: e.RAZORPAY_WEBHOOK_SECRET ?? (emulated ? 'emulator_webhook_secret' : undefined),
      apiUrl: e.RAZORPAY_API_URL,
      emulated,
    },
    sessionSecret: e.SESSION_SECRET ?? developmentSecret(dataDir),
    licenseSigning,
    releaseSigning,
    dataSecret: {
      key: dataKey,
      previousKeys: previousDataKeys.filter((key) => key !== undefined),
    },
    trustProxy: e.TRUST_PROXY,
    metricsToken: e.METRICS_TOKEN,
    logLevel: e.LOG_LEVEL,
    shutdownDrainMs: (e.SHUTDOWN_DRAIN_SECONDS ?? (isProduction ? 5 : 0)) * 1000,
    firm: firm.identity,
    webhooks: { allowLoopback: e.WEBHOOKS_ALLOW_LOOPBACK },
    passwordHashCost: e.PASSWORD_HASH_COST ?? PASSWORD_HASH_COST,
  };
}

function developmentSecret(dataDir: string): string {
  const file = path.join(dataDir, 'session-secret');
  try {
    return readFileSync(file, 'utf8').trim();
  } catch {
    mkdirSync(dataDir, { recursive: true });
    const secret = randomBytes(32).toString('hex');
    writeFileSync(file, secret, { mode: 0o600 });
    return secret;
  }
}

const DATA_KEY_SHAPE = '32 bytes as 64 hex digits or base64, e.g. from `openssl rand -hex 32`';

/** A 32-byte key given as 64 hex digits or as base64; undefined for anything else. */
function dataSecretKey(value: string): Buffer | undefined {
  if (/^[0-9a-f]{64}$/i.test(value)) return Buffer.from(value, 'hex');
  return /^[A-Za-z0-9+/_-]{43}=?$/.test(value) ? Buffer.from(value, 'base64') : undefined;
}

/** A signing key and the public keys of the ones it replaced, from two variables; what is wrong goes to `problems`. */
function signingSettings(
  raw: (name: string) => string | undefined,
  keyName: string,
  previousName: string,
  problems: string[],
): { privateKeyPem: string | undefined; previousPublicKeyPems: string[] } {
  const key = raw(keyName);
  const privateKeyPem = key === undefined ? undefined : ed25519PrivateKeyPem(key);
  if (key !== undefined && !privateKeyPem)
    problems.push(`${keyName}: must be an Ed25519 private key in PKCS#8 PEM (or its base64 body)`);
  const previous = publicKeyPems(raw(previousName) ?? '');
  if (!previous) problems.push(`${previousName}: must list Ed25519 public keys in SPKI PEM (or base64 DER)`);
  return { privateKeyPem, previousPublicKeyPems: previous ?? [] };
}

/** Environment values cannot hold newlines everywhere: accept "\n" escapes and a bare base64 body too. */
function unescapePem(value: string): string {
  return value.replace(/\\n/g, '\n').trim();
}

function ed25519PrivateKeyPem(value: string): string | undefined {
  try {
    const text = unescapePem(value);
    const key = text.includes('-----BEGIN')
      ? createPrivateKey(text)
      : createPrivateKey({ key: Buffer.from(text, 'base64'), format: 'der', type: 'pkcs8' });
    if (key.asymmetricKeyType !== 'ed25519') return undefined;
    return key.export({ format: 'pem', type: 'pkcs8' }).toString();
  } catch {
    return undefined;
  }
}

/** PEM blocks, or base64 DER separated by commas or whitespace; undefined when any of them is not Ed25519. */
function publicKeyPems(value: string): string[] | undefined {
  const text = unescapePem(value);
  if (text === '') return [];
  const parts = text.includes('-----BEGIN')
    ? (text.match(/-----BEGIN PUBLIC KEY-----[\s\S]+?-----END PUBLIC KEY-----/g) ?? [])
    : text.split(/[\s,]+/).filter(Boolean);
  if (parts.length === 0) return undefined;
  const pems: string[] = [];
  for (const part of parts) {
    try {
      const key = part.startsWith('-----BEGIN')
        ? createPublicKey(part)
        : createPublicKey({ key: Buffer.from(part, 'base64'), format: 'der', type: 'spki' });
      if (key.asymmetricKeyType !== 'ed25519') return undefined;
      pems.push(key.export({ format: 'pem', type: 'spki' }).toString());
    } catch {
      return undefined;
    }
  }
  return pems;
}
