import { lookup } from 'node:dns/promises';
import ipaddr from 'ipaddr.js';
import { DomainError } from '../kernel/domain-error';

/**
 * Where a webhook may go (decision 046): never to this host, the private network or the cloud's metadata service,
 * which a URL typed into the dashboard could otherwise reach from inside (SSRF). The name is resolved again at
 * every send and the request connects to the address that was checked, so a name that later points inside is
 * refused too. Loopback is allowed only with WEBHOOKS_ALLOW_LOOPBACK outside production.
 *
 * The ranges are `ipaddr.js`'s (issue 63): an address is allowed only when the library calls it ordinary `unicast`
 * after unwrapping an IPv4-mapped IPv6 address, so every special range it knows (private, carrier-grade NAT,
 * link-local, reserved and documentation, 6to4, Teredo, NAT64, site-local, discard, unique local, multicast…) is
 * refused, including the ones added to it later.
 */

/**
 * The deprecated IPv4-compatible form (::a.b.c.d, RFC 4291 2.5.5.1), which the library leaves as unicast: some
 * stacks still route it to the IPv4 address inside. `::` and `::1` are in it too and have their own ranges.
 */
const IPV4_COMPATIBLE = ipaddr.parseCIDR('::/96');

/** The range an address is in, as `ipaddr.js` names it (`unicast` for an ordinary address). */
function rangeOf(address: string): string {
  const ip = ipaddr.process(address);
  if (ip.kind() === 'ipv6' && ip.match(IPV4_COMPATIBLE) && ip.range() === 'unicast') return 'ipv4Compatible';
  return ip.range();
}

export type ResolvedAddress = { address: string; family: 4 | 6 };

/** A host's addresses; the system resolver unless a test names what a host resolves to now. */
export type Resolve = (host: string) => Promise<ResolvedAddress[]>;

const systemResolve: Resolve = async (host) =>
  (await lookup(host, { all: true, verbatim: true })).map((entry) => ({
    address: entry.address,
    family: entry.family === 6 ? 6 : 4,
  }));

/** Why an address may not receive webhooks, or undefined when it may. */
function refusal(address: string, allowLoopback: boolean): string | undefined {
  if (!ipaddr.isValid(address)) return 'not an IP address';
  const range = rangeOf(address);
  if (range === 'unicast') return undefined;
  if (range === 'loopback') return allowLoopback ? undefined : 'a loopback address';
  return `a private, link-local or metadata address (${range})`;
}

/** The URL's host as the resolver takes it: IPv6 literals without their brackets. */
const hostOf = (url: URL) => url.hostname.replace(/^\[(.*)\]$/, '$1');

/**
 * Resolves the URL's host and checks every address it has; returns the one to connect to. Throws a DomainError
 * naming the host and what it resolves to when any address is refused or the name does not resolve.
 */
export async function checkedAddress(
  rawUrl: string,
  options: { allowLoopback: boolean },
  resolve: Resolve = systemResolve,
): Promise<ResolvedAddress> {
  const url = new URL(rawUrl);
  const host = hostOf(url);
  let addresses: ResolvedAddress[];
  try {
    addresses = await resolve(host);
  } catch (error) {
    const code = (error as { code?: string }).code ?? 'error';
    throw new DomainError('invalid', `url: ${host} does not resolve (${code}).`);
  }
  for (const entry of addresses) {
    const why = refusal(entry.address, options.allowLoopback);
    if (why)
      throw new DomainError(
        'invalid',
        `url: ${host} resolves to ${entry.address}, ${why}; webhooks go only to public addresses.`,
      );
  }
  const first = addresses[0];
  if (!first) throw new DomainError('invalid', `url: ${host} does not resolve.`);
  return first;
}
