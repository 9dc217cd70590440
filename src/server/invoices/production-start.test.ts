import { execFile } from 'node:child_process';
import { generateKeyPairSync } from 'node:crypto';
import path from 'node:path';
import { promisify } from 'node:util';
import { describe, expect, it } from 'vitest';

const run = promisify(execFile);
const root = path.resolve(import.meta.dirname, '../../..');

describe('starting in production without the firm tax identity', () => {
  it('is refused with the list of missing settings', async () => {
    const env = {
      PATH: process.env.PATH ?? '',
      NODE_ENV: 'production',
      PUBLIC_URL: 'https://pinkcityadvisors.in',
      SMTP_URL: 'smtp://127.0.0.1:9',
      RAZORPAY_KEY_ID: 'rzp_live_abc',
      RAZORPAY_KEY_SECRET: 'key-secret',
      RAZORPAY_WEBHOOK_SECRET: 'webhook-secret',
      SESSION_SECRET: 'a-session-secret-that-is-long-enough-0123456789',
      DATA_SECRET_KEY: '00112233445566778899aabbccddeeff00112233445566778899aabbccddeeff',
      LICENSE_SIGNING_KEY: generateKeyPairSync('ed25519')
        .privateKey.export({ type: 'pkcs8', format: 'pem' })
        .toString(),
      RELEASE_SIGNING_KEY: generateKeyPairSync('ed25519')
        .privateKey.export({ type: 'pkcs8', format: 'pem' })
        .toString(),
      DATA_DIR: path.join(root, '.tmp/never-created'),
    };
    const started = run(process.execPath, ['--import', 'tsx', 'src/server/main.ts'], {
      cwd: root,
      env,
    });
    const failure = (await started.then(
      () => undefined,
      (error: unknown) => error,
    )) as { code?: number; stderr?: string } | undefined;
    expect(failure?.code).toBe(1);
    expect(failure?.stderr).toContain(
      [
        'Invalid configuration:',
        '  - FIRM_LEGAL_NAME: required in production',
        '  - FIRM_ADDRESS: required in production',
        '  - FIRM_GSTIN: required in production',
      ].join('\n'),
    );
  });
});
