import { describe, expect, it } from 'vitest';
import { hashPassword, needsRehash, verifyPassword } from './passwords';

describe('password hashing', () => {
  it('stores scrypt N=2^17, r=8, p=1 with a random salt alongside the hash', async () => {
    const [first, second] = await Promise.all([hashPassword('same password'), hashPassword('same password')]);
    expect(first).toMatch(/^scrypt\$17\$8\$1\$[\w-]{22}\$[\w-]{43}$/);
    expect(first).not.toBe(second);
    expect(await verifyPassword('same password', first)).toBe(true);
    expect(await verifyPassword('same password', second)).toBe(true);
    expect(await verifyPassword('same passworD', first)).toBe(false);
  });

  it('uses every character: no truncation at 72 bytes or anywhere else', async () => {
    const long = `${'ab'.repeat(63)}xy`;
    const stored = await hashPassword(long);
    expect(await verifyPassword(`${'ab'.repeat(63)}xz`, stored)).toBe(false);
    expect(await verifyPassword(long.slice(0, 72), stored)).toBe(false);
    expect(await verifyPassword(long, stored)).toBe(true);
  });

  it('treats composed and decomposed accents as the same password', async () => {
    const stored = await hashPassword('caf\u00e9 au lait');
    expect(await verifyPassword('cafe\u0301 au lait', stored)).toBe(true);
  });

  it('never matches a malformed or out-of-bounds stored hash', async () => {
    expect(await verifyPassword('x', 'plain-text-password')).toBe(false);
    expect(await verifyPassword('x', 'scrypt$30$8$1$c2FsdHNhbHQ$aGFzaA')).toBe(false);
  });

  it('never matches when nothing is stored (an unknown email), after a hash at the cost asked for', async () => {
    expect(await verifyPassword('x', undefined)).toBe(false);
    expect(await verifyPassword('x', undefined, 12)).toBe(false);
  });

  it('hashes at a lower cost when told (the tests), and asks for a rehash wherever the cost differs', async () => {
    const cheap = await hashPassword('same password', 12);
    expect(cheap).toMatch(/^scrypt\$12\$8\$1\$[\w-]{22}\$[\w-]{43}$/);
    expect(await verifyPassword('same password', cheap)).toBe(true);
    expect(await verifyPassword('same passworD', cheap, 12)).toBe(false);
    expect(needsRehash(cheap, 12)).toBe(false);
    expect(needsRehash(cheap)).toBe(true);
    expect(needsRehash(await hashPassword('same password'), 12)).toBe(true);
  });

  it('asks for a rehash of hashes made with weaker parameters', () => {
    expect(needsRehash('scrypt$14$8$1$c2FsdHNhbHRzYWx0$AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA')).toBe(
      true,
    );
  });
});
