import { cleanup, render, screen } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { formatCouponEnd } from './CouponsScreen';
import { RefundPanel } from './RefundPanel';
import { headingsUnder } from './releases/NotesForm';
import { customerEmail, formatFileSize } from './ui';

describe('the back office’s small print', () => {
  it('shows an erased buyer as "Erased customer", and anyone else by their address', () => {
    expect(customerEmail('erased-0b6f8a52-8f3c-4e0e-9d55-2f1d9a3c1e11@invalid')).toBe('Erased customer');
    expect(customerEmail('ritu.sharma@example.in')).toBe('ritu.sharma@example.in');
  });

  it('gives small files in bytes or KB, never "0.0 MB"', () => {
    expect(formatFileSize(941)).toBe('941 bytes');
    expect(formatFileSize(1)).toBe('1 byte');
    expect(formatFileSize(52_224)).toBe('51.0 KB');
    expect(formatFileSize(19_293_798)).toBe('18.4 MB');
  });

  it('shows a coupon ending on 31 Dec as that day, and an end with a time as the time', () => {
    // Stored as the next midnight in India (shared/coupons.ts couponEnd).
    expect(formatCouponEnd('2026-12-31T18:30:00.000Z')).toBe('31 Dec 2026');
    expect(formatCouponEnd('2026-12-31T12:00:00.000Z')).toMatch(/31 Dec 2026, 05:30 pm/i);
  });

  it('moves the release notes’ headings under the preview’s h3', () => {
    expect(headingsUnder('<h1>New</h1><h2 id="x">Fixes</h2><h6>Tiny</h6>')).toBe(
      '<h4>New</h4><h5 id="x">Fixes</h5><h6>Tiny</h6>',
    );
    // Notes that start at ## start at h4 too: no level is skipped under the h3 (axe heading-order).
    expect(headingsUnder('<h2>Faster</h2><h3>Detail</h3>')).toBe('<h4>Faster</h4><h5>Detail</h5>');
    expect(headingsUnder('<p>No headings</p>')).toBe('<p>No headings</p>');
  });
});

describe('the authenticator code fields', () => {
  it('have one length, the numeric keypad and a description of what to type', () => {
    render(<RefundPanel orderId="order-1" amount="₹1,499.00" onDone={() => {}} onCancel={() => {}} />);
    const code = screen.getByRole('textbox', { name: /Code from your authenticator app/ });
    expect(code.getAttribute('inputmode')).toBe('numeric');
    expect(code.getAttribute('maxlength')).toBe('7');
    expect(code.getAttribute('autocomplete')).toBe('one-time-code');
    const described = document.getElementById(code.getAttribute('aria-describedby') ?? '');
    expect(described?.textContent).toBe('The 6-digit code your authenticator app shows now.');
    cleanup();
  });
});
