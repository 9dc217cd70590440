import { describe, expect, it } from 'vitest';
import { amountInWords, indianNumberInWords, internationalNumberInWords } from './words';

describe('amounts in words', () => {
  it('counts rupees in thousands, lakhs and crores', () => {
    expect(indianNumberInWords(0)).toBe('Zero');
    expect(indianNumberInWords(15)).toBe('Fifteen');
    expect(indianNumberInWords(40)).toBe('Forty');
    expect(indianNumberInWords(101)).toBe('One Hundred One');
    expect(indianNumberInWords(1_499)).toBe('One Thousand Four Hundred Ninety-Nine');
    expect(indianNumberInWords(1_00_000)).toBe('One Lakh');
    expect(indianNumberInWords(12_34_567)).toBe('Twelve Lakh Thirty-Four Thousand Five Hundred Sixty-Seven');
    expect(indianNumberInWords(1_00_00_000)).toBe('One Crore');
    expect(indianNumberInWords(1_23_45_67_890)).toBe(
      'One Hundred Twenty-Three Crore Forty-Five Lakh Sixty-Seven Thousand Eight Hundred Ninety',
    );
  });

  it('counts dollars in thousands and millions', () => {
    expect(internationalNumberInWords(19)).toBe('Nineteen');
    expect(internationalNumberInWords(1_234_567)).toBe(
      'One Million Two Hundred Thirty-Four Thousand Five Hundred Sixty-Seven',
    );
    expect(internationalNumberInWords(2_000_000_005)).toBe('Two Billion Five');
  });

  it('writes rupees and paise, dollars and cents', () => {
    expect(amountInWords(1499_00, 'INR')).toBe('Rupees One Thousand Four Hundred Ninety-Nine Only');
    expect(amountInWords(1270_34, 'INR')).toBe(
      'Rupees One Thousand Two Hundred Seventy and Thirty-Four Paise Only',
    );
    expect(amountInWords(2_50_000_05, 'INR')).toBe('Rupees Two Lakh Fifty Thousand and Five Paise Only');
    expect(amountInWords(19_99, 'USD')).toBe('US Dollars Nineteen and Ninety-Nine Cents Only');
    expect(amountInWords(0, 'INR')).toBe('Rupees Zero Only');
  });
});
