import { describe, expect, it } from 'vitest';
import { toolChangesSchema, toolInputSchema } from './dashboard';

/** The first message per field, as both adapters show it. */
const problems = (input: Record<string, unknown>) =>
  Object.fromEntries(
    (toolChangesSchema.safeParse(input).error?.issues ?? []).map((issue) => [
      String(issue.path[0]),
      issue.message,
    ]),
  );

describe('the tool fields the dashboard and the command line share', () => {
  it('reads whole and two-decimal prices into subunits without floating point', () => {
    expect(toolChangesSchema.parse({ priceINR: '499', priceUSD: ' 7.99 ' })).toEqual({
      priceINR: 49_900,
      priceUSD: 799,
    });
    expect(toolChangesSchema.parse({ priceINR: '1499.5' }).priceINR).toBe(149_950);
    expect(toolChangesSchema.parse({ priceUSD: '1.00' }).priceUSD).toBe(100);
  });

  it('refuses negative, zero, three-decimal, separated, too small and absurd prices', () => {
    expect(problems({ priceINR: '-5' }).priceINR).toMatch(/must be positive/i);
    expect(problems({ priceINR: '0' }).priceINR).toMatch(/must be positive/i);
    expect(problems({ priceUSD: '7.999' }).priceUSD).toMatch(/at most two decimals/i);
    expect(problems({ priceUSD: '7,99' }).priceUSD).toMatch(/not a price/i);
    expect(problems({ priceINR: '1e3' }).priceINR).toMatch(/not a price/i);
    expect(problems({ priceUSD: '0.99' }).priceUSD).toMatch(/at least 1\.00/i);
    expect(problems({ priceINR: '10000000.01' }).priceINR).toMatch(/at most/i);
  });

  it('lets the USD price fall back to INR / 75 only while that is still payable', () => {
    expect(toolChangesSchema.parse({ priceINR: '75', priceUSD: '' })).toEqual({
      priceINR: 7_500,
      priceUSD: null,
    });
    expect(problems({ priceINR: '74', priceUSD: '' }).priceUSD).toMatch(
      /\$0\.99, below Razorpay's 1\.00 minimum/,
    );
  });

  it('gives only the fields a change names, each in the catalogue’s terms', () => {
    expect(
      toolChangesSchema.parse({
        device: 'none',
        icon: '  ',
        sortOrder: '-20',
        activationLimit: '3',
        trialDays: '14',
        packageId: '',
        heartbeatMinutes: '2h',
        licenseModel: 'floating',
      }),
    ).toEqual({
      device: null,
      icon: null,
      sortOrder: -20,
      activationLimit: 3,
      trialDays: 14,
      packageId: null,
      heartbeatMinutes: 120,
      licenseModel: 'floating',
    });
    expect(toolChangesSchema.parse({})).toEqual({});
  });

  it('names the field of each refusal, and refuses fields it does not know', () => {
    expect(
      problems({
        name: ' ',
        device: 'Linux',
        delivery: 'post',
        activationLimit: '0',
        sortOrder: 'first',
        packageId: 'pdf toolkit',
      }),
    ).toEqual({
      name: 'Give the tool a name.',
      device: 'Choose Windows, macOS or none.',
      delivery: 'Choose license_key or credentials.',
      activationLimit: 'A whole number from 1 to 100.',
      sortOrder: 'A whole number, like 10.',
      packageId: 'A package id is letters, digits, dots, dashes and underscores, e.g. PdfToolkit.',
    });
    expect(toolChangesSchema.safeParse({ priceInrPaise: 100 }).success).toBe(false);
  });

  it('is the form’s schema too: the same words for the same field', () => {
    const form = toolInputSchema.safeParse({
      name: 'PDF Toolkit',
      description: 'Merge PDFs.',
      device: 'Windows',
      priceINR: '0',
      priceUSD: '',
      comingSoon: false,
      active: true,
      delivery: 'license_key',
      activationLimit: '2',
    });
    const [issue] = form.error?.issues ?? [];
    expect(issue?.path).toEqual(['priceINR']);
    expect(issue?.message).toBe(problems({ priceINR: '0' }).priceINR);
  });
});
