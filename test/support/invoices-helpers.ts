import { execFile } from 'node:child_process';
import { generateKeyPairSync } from 'node:crypto';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { loadConfig } from '../../src/server/kernel/config';
import type { FirmIdentity } from '../../src/server/kernel/firm';

const run = promisify(execFile);

/** The text of a PDF as poppler's pdftotext reads it (what a buyer's search or copy-paste would see). */
export async function pdfText(pdf: Buffer, options: { layout?: boolean } = {}): Promise<string> {
  const dir = await mkdtemp(path.join(tmpdir(), 'pdf-text-'));
  try {
    const file = path.join(dir, 'document.pdf');
    await writeFile(file, pdf);
    const args = [...(options.layout ? ['-layout'] : []), '-enc', 'UTF-8', file, '-'];
    const { stdout } = await run('pdftotext', args);
    return stdout;
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
}

/** Page count and size from poppler's pdfinfo. */
export async function pdfInfo(pdf: Buffer): Promise<Record<string, string>> {
  const dir = await mkdtemp(path.join(tmpdir(), 'pdf-info-'));
  try {
    const file = path.join(dir, 'document.pdf');
    await writeFile(file, pdf);
    const { stdout } = await run('pdfinfo', [file]);
    return Object.fromEntries(
      stdout
        .split('\n')
        .filter((row) => row.includes(':'))
        .map((row) => [row.slice(0, row.indexOf(':')).trim(), row.slice(row.indexOf(':') + 1).trim()]),
    );
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
}

/** The names of the fonts a PDF embeds, from poppler's pdffonts (subset tags removed). */
export async function pdfFonts(pdf: Buffer): Promise<string[]> {
  const dir = await mkdtemp(path.join(tmpdir(), 'pdf-fonts-'));
  try {
    const file = path.join(dir, 'document.pdf');
    await writeFile(file, pdf);
    const { stdout } = await run('pdffonts', [file]);
    return stdout
      .split('\n')
      .slice(2)
      .map((row) => row.split(/\s+/)[0]?.replace(/^[A-Z]{6}\+/, '') ?? '')
      .filter(Boolean);
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
}

/** A firm identity as production would load it (not a specimen), with or without a letter of undertaking. */
export function productionFirm(options: { lutArn?: string } = {}): FirmIdentity {
  return loadConfig({
    NODE_ENV: 'production',
    PUBLIC_URL: 'https://pinkcityadvisors.in',
    SMTP_URL: 'smtps://mailer:pw@smtp.example.com:465',
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
    FIRM_LEGAL_NAME: 'Pinkcity Advisors LLP',
    FIRM_ADDRESS: '3rd Floor, Ganpati Plaza, MI Road\\nJaipur, Rajasthan 302001',
    FIRM_GSTIN: '08AAPFP1234A1ZK',
    ...(options.lutArn ? { LUT_ARN: options.lutArn } : {}),
  }).firm;
}
