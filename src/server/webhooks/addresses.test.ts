import { describe, expect, it } from 'vitest';
import { checkedAddress, type ResolvedAddress } from './addresses';

/**
 * The webhook address guard (issue 63) decides by the ranges `ipaddr.js` knows: only ordinary unicast addresses
 * receive webhooks, whatever form an address inside is written in.
 */
const resolvingTo = (address: string) => async (): Promise<ResolvedAddress[]> => [
  { address, family: address.includes(':') ? 6 : 4 },
];

const check = (address: string, allowLoopback = false) =>
  checkedAddress('https://hooks.example.com/in', { allowLoopback }, resolvingTo(address));

describe('the webhook address guard', () => {
  it.each([
    ['IPv4 private', '10.1.2.3'],
    ['IPv4 carrier-grade NAT', '100.64.0.1'],
    ['IPv4 metadata (link-local)', '169.254.169.254'],
    ['IPv4 documentation (TEST-NET-2)', '198.51.100.7'],
    ['IPv4 broadcast', '255.255.255.255'],
    ['IPv4 multicast', '239.1.1.1'],
    ['IPv4 unspecified', '0.0.0.0'],
    ['IPv4-mapped, dotted', '::ffff:10.0.0.1'],
    ['IPv4-mapped, in hex', '::ffff:a9fe:a9fe'],
    ['IPv4-compatible (deprecated)', '::10.0.0.1'],
    ['IPv4-compatible loopback', '::127.0.0.1'],
    ['6to4 of a private address', '2002:a00:1::1'],
    ['site-local (deprecated)', 'fec0::1'],
    ['discard-only', '100::1'],
    ['unique local', 'fd12:3456::1'],
    ['IPv6 link-local', 'fe80::1'],
    ['Teredo', '2001:0:4136:e378::1'],
    ['NAT64 (RFC 6052)', '64:ff9b::a00:1'],
    ['NAT64 local-use (RFC 8215)', '64:ff9b:1::a00:1'],
    ['IPv6 benchmarking', '2001:2::1'],
    ['IPv6 documentation', '2001:db8::1'],
    ['IPv6 multicast', 'ff02::1'],
    ['IPv6 unspecified', '::'],
  ])('refuses %s (%s)', async (_form, address) => {
    await expect(check(address)).rejects.toThrow(
      new RegExp(
        `resolves to ${address.replace(/[.]/g, '\\.')}, a (private, link-local or metadata|loopback) address`,
      ),
    );
  });

  it.each([
    ['IPv4 loopback', '127.0.0.1'],
    ['IPv6 loopback', '::1'],
    ['IPv4-mapped loopback', '::ffff:127.0.0.1'],
  ])('refuses %s (%s) unless loopback is allowed', async (_form, address) => {
    await expect(check(address)).rejects.toThrow(/a loopback address/);
    await expect(check(address, true)).resolves.toMatchObject({ address });
  });

  it.each([
    ['IPv4', '93.184.216.34'],
    ['IPv6', '2606:4700:4700::1111'],
    ['IPv4-mapped public', '::ffff:93.184.216.34'],
  ])('sends to a public %s address (%s)', async (_form, address) => {
    await expect(check(address)).resolves.toMatchObject({ address });
  });
});
