import { describe, expect, it } from 'vitest';
import { currencyForCountry, currencyFromLocation, detectCurrency, fallbackCurrency } from './currency';

const INDIA = { country: 'IN', currency: 'INR' };
const ELSEWHERE = { country: 'OTHER', currency: 'USD' };

describe('currencyForCountry', () => {
  it('gives India INR and every other known country USD', () => {
    expect(currencyForCountry('IN')).toEqual(INDIA);
    expect(currencyForCountry('in')).toEqual(INDIA);
    expect(currencyForCountry('US')).toEqual({ country: 'US', currency: 'USD' });
    expect(currencyForCountry('GB')).toEqual({ country: 'GB', currency: 'USD' });
  });

  it('treats missing, malformed and placeholder codes as unknown', () => {
    for (const country of [null, undefined, '', 'IND', 'X', '1N', 'XX', 'T1']) {
      expect(currencyForCountry(country)).toEqual(ELSEWHERE);
    }
  });
});

describe('fallbackCurrency', () => {
  it('picks India for an Indian language tag or Hindi', () => {
    for (const languages of [['en-IN'], ['en-US', 'ta-IN'], ['hi'], ['hi-Latn'], ['EN-in']]) {
      expect(fallbackCurrency({ languages, timeZone: 'Europe/London' })).toEqual(INDIA);
    }
  });

  it('picks India for either name of Indian time', () => {
    expect(fallbackCurrency({ languages: ['en-US'], timeZone: 'Asia/Kolkata' })).toEqual(INDIA);
    expect(fallbackCurrency({ languages: ['en-US'], timeZone: 'Asia/Calcutta' })).toEqual(INDIA);
  });

  it('picks USD otherwise', () => {
    expect(fallbackCurrency({ languages: ['en-US', 'de'], timeZone: 'America/New_York' })).toEqual(ELSEWHERE);
    expect(fallbackCurrency({ languages: ['hin', 'chi'], timeZone: undefined })).toEqual(ELSEWHERE);
    expect(fallbackCurrency({ languages: [], timeZone: undefined })).toEqual(ELSEWHERE);
  });
});

describe('currencyFromLocation', () => {
  it('always gives INR for India, whatever currency came with it', () => {
    expect(currencyFromLocation({ country: 'IN', currency: 'USD' })).toEqual(INDIA);
  });

  it("uses the answer's currency for other countries, defaulting to USD and OTHER", () => {
    expect(currencyFromLocation({ country: 'NP', currency: 'INR' })).toEqual({
      country: 'NP',
      currency: 'INR',
    });
    expect(currencyFromLocation({ country: 'US', currency: 'USD' })).toEqual({
      country: 'US',
      currency: 'USD',
    });
    expect(currencyFromLocation({})).toEqual(ELSEWHERE);
    expect(currencyFromLocation({ country: 'OTHER', currency: 'EUR' })).toEqual(ELSEWHERE);
  });

  it('refuses an answer that is not an object', () => {
    expect(() => currencyFromLocation(null)).toThrow();
    expect(() => currencyFromLocation('IN')).toThrow();
  });
});

describe('detectCurrency', () => {
  const indianBrowser = () => ({ languages: ['en-IN'], timeZone: 'Asia/Kolkata' });
  const americanBrowser = () => ({ languages: ['en-US'], timeZone: 'America/Chicago' });

  it("takes the server's answer when the lookup works", async () => {
    expect(await detectCurrency(async () => ({ country: 'IN', currency: 'INR' }), americanBrowser)).toEqual(
      INDIA,
    );
    expect(await detectCurrency(async () => ({ country: 'US', currency: 'USD' }), indianBrowser)).toEqual({
      country: 'US',
      currency: 'USD',
    });
  });

  it("falls back to the browser's locale when the lookup fails", async () => {
    const failing = async () => {
      throw new Error('network down');
    };
    expect(await detectCurrency(failing, indianBrowser)).toEqual(INDIA);
    expect(await detectCurrency(failing, americanBrowser)).toEqual(ELSEWHERE);
    expect(await detectCurrency(async () => 'not json', americanBrowser)).toEqual(ELSEWHERE);
  });

  it('settles on INR when the fallback fails too', async () => {
    const result = await detectCurrency(
      async () => {
        throw new Error('network down');
      },
      () => {
        throw new Error('no browser');
      },
    );
    expect(result).toEqual(INDIA);
  });

  it('reads the real locale by default and gives INR where there is no browser to read', async () => {
    const hasNavigator = typeof globalThis.navigator !== 'undefined';
    const result = await detectCurrency(async () => {
      throw new Error('network down');
    });
    if (!hasNavigator) expect(result).toEqual(INDIA);
    else expect(['INR', 'USD']).toContain(result.currency);
  });
});
