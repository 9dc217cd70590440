import { generateKeyPairSync } from 'node:crypto';
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { isValidGstin } from '../../shared/gstin';
import { ConfigError, loadConfig } from './config';

const SECRET = 'a-session-secret-that-is-long-enough-0123456789';

const signingKeys = generateKeyPairSync('ed25519');
const SIGNING_KEY = signingKeys.privateKey.export({ format: 'pem', type: 'pkcs8' }).toString();
const PUBLIC_KEY = signingKeys.publicKey.export({ format: 'pem', type: 'spki' }).toString();

const DATA_KEY = 'ab'.repeat(32);

const production = {
  NODE_ENV: 'production',
  PUBLIC_URL: 'https://pinkcityadvisors.in',
  SMTP_URL: 'smtps://mailer:pw@smtp.example.com:465',
  RAZORPAY_KEY_ID: 'rzp_live_abc',
  RAZORPAY_KEY_SECRET: 'key-secret',
  RAZORPAY_WEBHOOK_SECRET: 'webhook-secret',
  SESSION_SECRET: SECRET,
  LICENSE_SIGNING_KEY: SIGNING_KEY,
  RELEASE_SIGNING_KEY: SIGNING_KEY,
  DATA_SECRET_KEY: DATA_KEY,
  FIRM_LEGAL_NAME: 'Pinkcity Advisors LLP',
  FIRM_ADDRESS: '3rd Floor, Ganpati Plaza, MI Road, Jaipur, Rajasthan 302001',
  FIRM_GSTIN: '08AAPFP1234A1ZK',
};

function problemsOf(env: Record<string, string>): string[] {
  try {
    loadConfig(env);
  } catch (error) {
    if (error instanceof ConfigError) return error.problems;
    throw error;
  }
  throw new Error('expected loadConfig to refuse this environment');
}

let tempDir: string | undefined;
afterEach(async () => {
  if (tempDir) await rm(tempDir, { recursive: true, force: true });
  tempDir = undefined;
});

describe('loadConfig', () => {
  it('applies the documented defaults in development', () => {
    const config = loadConfig({ SESSION_SECRET: SECRET });
    expect(config).toMatchObject({
      env: 'development',
      isProduction: false,
      port: 3000,
      host: '0.0.0.0',
      publicUrl: 'http://localhost:3000',
      dataDir: path.resolve('./data'),
      databaseUrl: undefined,
      smtpUrl: undefined,
      trustProxy: false,
      razorpay: { emulated: true },
    });
  });

  it('lists every bad field at once', () => {
    const problems = problemsOf({
      PORT: 'eighty',
      DATABASE_URL: 'mysql://db.example/site',
      SMTP_URL: 'http://mail.example',
      TRUST_PROXY: 'maybe',
      SESSION_SECRET: 'short',
      RAZORPAY_KEY_ID: 'rzp_test_only_id',
    });
    const fields = problems.map((problem) => problem.split(':')[0]);
    expect(fields).toEqual(
      expect.arrayContaining([
        'PORT',
        'DATABASE_URL',
        'SMTP_URL',
        'TRUST_PROXY',
        'SESSION_SECRET',
        'RAZORPAY_KEY_ID and RAZORPAY_KEY_SECRET',
      ]),
    );
  });

  it('names the message of the error after every problem', () => {
    try {
      loadConfig({ PORT: '-1', SMTP_URL: 'ftp://x' });
      expect.unreachable();
    } catch (error) {
      expect(error).toBeInstanceOf(ConfigError);
      expect((error as Error).message).toMatch(/Invalid configuration:\n {2}- PORT: .+\n {2}- SMTP_URL: /);
    }
  });

  it('starts in production when everything required is set', () => {
    const config = loadConfig(production);
    expect(config).toMatchObject({
      isProduction: true,
      publicUrl: 'https://pinkcityadvisors.in',
      smtpUrl: production.SMTP_URL,
      sessionSecret: SECRET,
      razorpay: { emulated: false, keyId: 'rzp_live_abc' },
    });
  });

  it('refuses to start in production without SMTP, Razorpay keys, a session secret and an https URL', () => {
    expect(problemsOf({ NODE_ENV: 'production' })).toEqual([
      'PUBLIC_URL: must be an https:// URL in production',
      'SMTP_URL: required in production',
      'RAZORPAY_KEY_ID: required in production',
      'RAZORPAY_KEY_SECRET: required in production',
      'RAZORPAY_WEBHOOK_SECRET: required in production',
      'SESSION_SECRET: required in production (at least 32 characters)',
      'LICENSE_SIGNING_KEY: required in production (an Ed25519 private key, PKCS#8 PEM)',
      'RELEASE_SIGNING_KEY: required in production (an Ed25519 private key, PKCS#8 PEM)',
      'DATA_SECRET_KEY: required in production (32 bytes as 64 hex digits or base64, e.g. from `openssl rand -hex 32`)',
      'FIRM_LEGAL_NAME: required in production',
      'FIRM_ADDRESS: required in production',
      'FIRM_GSTIN: required in production',
    ]);
    expect(problemsOf({ ...production, PUBLIC_URL: 'http://pinkcityadvisors.in' })).toEqual([
      'PUBLIC_URL: must be an https:// URL in production',
    ]);
    expect(problemsOf({ ...production, SMTP_URL: '' })).toEqual(['SMTP_URL: required in production']);
  });

  it('reports malformed fields and missing production settings together', () => {
    const { SMTP_URL: _, ...withoutSmtp } = production;
    const problems = problemsOf({ ...withoutSmtp, PORT: 'eighty' });
    expect(problems.map((problem) => problem.split(':')[0])).toEqual(['PORT', 'SMTP_URL']);
  });

  it('uses the firm identity from the environment in production, not a specimen', () => {
    const { firm } = loadConfig({ ...production, LUT_ARN: 'ad0804230001234', INVOICE_PREFIX: 'pc' });
    expect(firm).toMatchObject({
      legalName: 'Pinkcity Advisors LLP',
      gstin: '08AAPFP1234A1ZK',
      state: { name: 'Rajasthan', gstCode: '08' },
      sac: '997331',
      invoicePrefix: 'PC',
      lutArn: 'AD0804230001234',
      specimen: false,
    });
  });

  it('uses a specimen identity with a valid GSTIN outside production', () => {
    const { firm } = loadConfig({ SESSION_SECRET: SECRET });
    expect(firm.specimen).toBe(true);
    expect(firm.gstin).toMatch(/^08/);
    expect(isValidGstin(firm.gstin)).toBe(true);
    expect(firm.lutArn).toBeUndefined();
  });

  it('checks the firm GSTIN, its state, the SAC, the prefix and the LUT reference', () => {
    expect(problemsOf({ ...production, FIRM_GSTIN: '08AAPFP1234A1ZL' })).toEqual([
      'FIRM_GSTIN: must be a 15-character GSTIN with the right check character',
    ]);
    expect(problemsOf({ ...production, FIRM_STATE: 'Maharashtra' })).toEqual([
      "FIRM_GSTIN: its state code 08 is not FIRM_STATE's (27)",
    ]);
    expect(loadConfig({ ...production, FIRM_STATE: '08' }).firm.state.name).toBe('Rajasthan');
    expect(
      problemsOf({
        ...production,
        FIRM_STATE: 'Atlantis',
        INVOICE_SAC: '12345',
        INVOICE_PREFIX: 'PCAL',
        LUT_ARN: 'short',
      }).map((problem) => problem.split(':')[0]),
    ).toEqual(['FIRM_STATE', 'INVOICE_SAC', 'INVOICE_PREFIX', 'LUT_ARN']);
  });

  it('allows webhooks to loopback only with WEBHOOKS_ALLOW_LOOPBACK, and refuses that setting in production', () => {
    expect(loadConfig({ SESSION_SECRET: SECRET }).webhooks).toEqual({ allowLoopback: false });
    expect(loadConfig({ SESSION_SECRET: SECRET, WEBHOOKS_ALLOW_LOOPBACK: '1' }).webhooks).toEqual({
      allowLoopback: true,
    });
    expect(loadConfig(production).webhooks).toEqual({ allowLoopback: false });
    expect(problemsOf({ ...production, WEBHOOKS_ALLOW_LOOPBACK: '1' })).toEqual([
      'WEBHOOKS_ALLOW_LOOPBACK: not allowed in production (webhooks never go to loopback there)',
    ]);
  });

  it("hashes passwords at scrypt's cost 17 unless PASSWORD_HASH_COST lowers it, which production refuses", () => {
    expect(loadConfig({ SESSION_SECRET: SECRET }).passwordHashCost).toBe(17);
    expect(loadConfig({ SESSION_SECRET: SECRET, PASSWORD_HASH_COST: '12' }).passwordHashCost).toBe(12);
    expect(loadConfig(production).passwordHashCost).toBe(17);
    expect(loadConfig({ ...production, PASSWORD_HASH_COST: '18' }).passwordHashCost).toBe(18);
    expect(problemsOf({ ...production, PASSWORD_HASH_COST: '12' })).toEqual([
      'PASSWORD_HASH_COST: not below 17 in production (a lower cost is for tests)',
    ]);
    expect(problemsOf({ SESSION_SECRET: SECRET, PASSWORD_HASH_COST: '9' })[0]).toMatch(
      /^PASSWORD_HASH_COST: /,
    );
    expect(problemsOf({ SESSION_SECRET: SECRET, PASSWORD_HASH_COST: 'cheap' })[0]).toMatch(
      /^PASSWORD_HASH_COST: /,
    );
  });

  it('trusts proxy headers only when TRUST_PROXY says so', () => {
    expect(loadConfig({ SESSION_SECRET: SECRET, TRUST_PROXY: '1' }).trustProxy).toBe(true);
    expect(loadConfig({ SESSION_SECRET: SECRET, TRUST_PROXY: 'true' }).trustProxy).toBe(true);
    expect(loadConfig({ SESSION_SECRET: SECRET, TRUST_PROXY: '0' }).trustProxy).toBe(false);
  });

  it('drains 5 s after SIGTERM in production and not at all elsewhere, unless SHUTDOWN_DRAIN_SECONDS says', () => {
    expect(loadConfig(production).shutdownDrainMs).toBe(5000);
    expect(loadConfig({ SESSION_SECRET: SECRET }).shutdownDrainMs).toBe(0);
    expect(loadConfig({ ...production, SHUTDOWN_DRAIN_SECONDS: '12' }).shutdownDrainMs).toBe(12_000);
    expect(loadConfig({ ...production, SHUTDOWN_DRAIN_SECONDS: '0' }).shutdownDrainMs).toBe(0);
    expect(loadConfig({ ...production, SHUTDOWN_DRAIN_SECONDS: ' ' }).shutdownDrainMs).toBe(5000);
    for (const value of ['-1', '2.5', '121', 'soon'])
      expect(problemsOf({ SESSION_SECRET: SECRET, SHUTDOWN_DRAIN_SECONDS: value })).toHaveLength(1);
  });

  it('takes a metrics token of at least 16 characters, and none when unset or blank', () => {
    const token = 'a-metrics-token-16';
    expect(loadConfig({ SESSION_SECRET: SECRET, METRICS_TOKEN: token }).metricsToken).toBe(token);
    expect(loadConfig({ SESSION_SECRET: SECRET }).metricsToken).toBeUndefined();
    expect(loadConfig({ SESSION_SECRET: SECRET, METRICS_TOKEN: ' ' }).metricsToken).toBeUndefined();
    expect(problemsOf({ SESSION_SECRET: SECRET, METRICS_TOKEN: 'short' })).toEqual([
      'METRICS_TOKEN: must be at least 16 characters',
    ]);
  });

  it('generates a development session secret once and keeps it in DATA_DIR', async () => {
    tempDir = await mkdtemp(path.join(tmpdir(), 'config-'));
    const first = loadConfig({ DATA_DIR: tempDir }).sessionSecret;
    expect(first).toMatch(/^[0-9a-f]{64}$/);
    expect(loadConfig({ DATA_DIR: tempDir }).sessionSecret).toBe(first);
    expect((await readFile(path.join(tempDir, 'session-secret'), 'utf8')).trim()).toBe(first);
  });

  it('takes the license signing key as PEM, escaped PEM or base64 DER, and refuses any other key', () => {
    const escaped = SIGNING_KEY.replace(/\n/g, '\\n');
    const der = signingKeys.privateKey.export({ format: 'der', type: 'pkcs8' }).toString('base64');
    for (const value of [SIGNING_KEY, escaped, der]) {
      expect(loadConfig({ ...production, LICENSE_SIGNING_KEY: value }).licenseSigning.privateKeyPem).toBe(
        SIGNING_KEY,
      );
    }
    const rsa = generateKeyPairSync('rsa', { modulusLength: 1024 })
      .privateKey.export({ format: 'pem', type: 'pkcs8' })
      .toString();
    for (const value of [rsa, 'not a key']) {
      expect(problemsOf({ ...production, LICENSE_SIGNING_KEY: value })).toEqual([
        'LICENSE_SIGNING_KEY: must be an Ed25519 private key in PKCS#8 PEM (or its base64 body)',
      ]);
    }
  });

  it('takes the release signing key and its previous public keys the same way, apart from the license key', () => {
    const releaseKeys = generateKeyPairSync('ed25519');
    const releasePem = releaseKeys.privateKey.export({ format: 'pem', type: 'pkcs8' }).toString();
    const config = loadConfig({
      ...production,
      RELEASE_SIGNING_KEY: releasePem.replace(/\n/g, '\\n'),
      RELEASE_PREVIOUS_PUBLIC_KEYS: PUBLIC_KEY,
    });
    expect(config.releaseSigning).toEqual({ privateKeyPem: releasePem, previousPublicKeyPems: [PUBLIC_KEY] });
    expect(config.licenseSigning.privateKeyPem).toBe(SIGNING_KEY);
    expect(
      problemsOf({ ...production, RELEASE_SIGNING_KEY: 'not a key', RELEASE_PREVIOUS_PUBLIC_KEYS: 'AAAA' }),
    ).toEqual([
      'RELEASE_SIGNING_KEY: must be an Ed25519 private key in PKCS#8 PEM (or its base64 body)',
      'RELEASE_PREVIOUS_PUBLIC_KEYS: must list Ed25519 public keys in SPKI PEM (or base64 DER)',
    ]);
  });

  it('lists the previous public keys that still verify old license files', () => {
    const other = generateKeyPairSync('ed25519').publicKey;
    const otherDer = other.export({ format: 'der', type: 'spki' }).toString('base64');
    const config = loadConfig({
      ...production,
      LICENSE_PREVIOUS_PUBLIC_KEYS: `${PUBLIC_KEY}\n${PUBLIC_KEY}`,
    });
    expect(config.licenseSigning.previousPublicKeyPems).toEqual([PUBLIC_KEY, PUBLIC_KEY]);
    expect(
      loadConfig({ ...production, LICENSE_PREVIOUS_PUBLIC_KEYS: `${otherDer}, ${otherDer}` }).licenseSigning
        .previousPublicKeyPems,
    ).toEqual([other.export({ format: 'pem', type: 'spki' }).toString(), expect.any(String)]);
    expect(problemsOf({ ...production, LICENSE_PREVIOUS_PUBLIC_KEYS: 'AAAA' })).toEqual([
      'LICENSE_PREVIOUS_PUBLIC_KEYS: must list Ed25519 public keys in SPKI PEM (or base64 DER)',
    ]);
  });

  it('takes the data secret key as 64 hex digits or base64, and previous keys for a rotation', () => {
    const base64Key = Buffer.alloc(32, 7).toString('base64');
    const config = loadConfig({
      ...production,
      DATA_SECRET_KEY: base64Key,
      DATA_PREVIOUS_SECRET_KEYS: `${DATA_KEY}, ${base64Key}`,
    });
    expect(config.dataSecret.key).toEqual(Buffer.alloc(32, 7));
    expect(config.dataSecret.previousKeys).toEqual([Buffer.from(DATA_KEY, 'hex'), Buffer.alloc(32, 7)]);
    expect(problemsOf({ ...production, DATA_SECRET_KEY: 'too-short' })).toEqual([
      'DATA_SECRET_KEY: must be 32 bytes as 64 hex digits or base64, e.g. from `openssl rand -hex 32`',
    ]);
    expect(problemsOf({ ...production, DATA_PREVIOUS_SECRET_KEYS: `${DATA_KEY},nope` })).toEqual([
      'DATA_PREVIOUS_SECRET_KEYS: each must be 32 bytes as 64 hex digits or base64, e.g. from `openssl rand -hex 32`, separated by commas',
    ]);
  });
});
