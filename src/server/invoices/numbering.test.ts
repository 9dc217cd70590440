import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestDatabase } from '../../../test/support/database';
import type { DatabaseHandle } from '../db';
import { financialYearOf, formatDocumentNumber, indiaDate, nextDocumentNumber } from './numbering';

describe('financial year and dates in India time', () => {
  it('turns the year on 1 April at midnight in India, not in UTC', () => {
    expect(financialYearOf(new Date('2027-03-31T18:29:59Z'))).toBe('26-27');
    expect(financialYearOf(new Date('2027-03-31T18:30:00Z'))).toBe('27-28');
    expect(financialYearOf(new Date('2026-01-15T00:00:00Z'))).toBe('25-26');
    expect(financialYearOf(new Date('2099-12-31T00:00:00Z'))).toBe('99-00');
    expect(indiaDate(new Date('2026-06-01T20:00:00Z'))).toBe('2026-06-02');
  });

  it('formats numbers within the 16 characters rule 46 allows', () => {
    expect(formatDocumentNumber('PCA', 'invoice', '26-27', 1)).toBe('PCA/26-27/00001');
    expect(formatDocumentNumber('PCA', 'credit-note', '26-27', 99_999)).toBe('PCAC/26-27/99999');
    expect(formatDocumentNumber('PCA', 'credit-note', '26-27', 99_999).length).toBeLessThanOrEqual(16);
  });
});

describe('nextDocumentNumber', () => {
  let database: DatabaseHandle;
  beforeAll(async () => {
    database = await createTestDatabase();
  });
  afterAll(async () => {
    await database.close();
  });

  const issue = (series: 'invoice' | 'credit-note', at: Date) =>
    database.db.transaction((tx) => nextDocumentNumber(tx, { series, prefix: 'PCA', at }));

  it('gives 20 concurrent issues 20 consecutive numbers, with no duplicate and no gap', async () => {
    const at = new Date('2026-06-01T10:00:00Z');
    const numbers = await Promise.all(Array.from({ length: 20 }, () => issue('invoice', at)));
    const serials = numbers.map((issued) => issued.serial).sort((a, b) => a - b);
    expect(serials).toEqual(Array.from({ length: 20 }, (_, index) => index + 1));
    expect(new Set(numbers.map((issued) => issued.number)).size).toBe(20);
    expect(numbers.map((issued) => issued.number)).toContain('PCA/26-27/00020');
  });

  it('gives a number back when the transaction that took it rolls back', async () => {
    const at = new Date('2026-06-02T10:00:00Z');
    await expect(
      database.db.transaction(async (tx) => {
        await nextDocumentNumber(tx, { series: 'invoice', prefix: 'PCA', at });
        throw new Error('payment write failed');
      }),
    ).rejects.toThrow('payment write failed');
    expect((await issue('invoice', at)).number).toBe('PCA/26-27/00021');
  });

  it('keeps credit notes in their own series', async () => {
    const at = new Date('2026-06-03T10:00:00Z');
    expect((await issue('credit-note', at)).number).toBe('PCAC/26-27/00001');
    expect((await issue('invoice', at)).number).toBe('PCA/26-27/00022');
  });

  it('starts the new financial year at 1 with the first issue on or after 1 April, India time', async () => {
    expect((await issue('invoice', new Date('2027-03-31T18:29:00Z'))).number).toBe('PCA/26-27/00023');
    expect((await issue('invoice', new Date('2027-03-31T18:30:00Z'))).number).toBe('PCA/27-28/00001');
    expect((await issue('credit-note', new Date('2027-04-01T09:00:00Z'))).number).toBe('PCAC/27-28/00001');
    expect((await issue('invoice', new Date('2027-04-02T09:00:00Z'))).number).toBe('PCA/27-28/00002');
  });
});
