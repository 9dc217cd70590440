import { lookup } from 'node:dns/promises';
import { BlockList, isIP } from 'node:net';
import { DomainError } from '../kernel/domain-error';

/**
 * Where a webhook may go (decision 046): never to this host, the private network or the cloud's metadata service,
 * which a URL typed into the dashboard could otherwise reach from inside (SSRF). The name is resolved again at
 * every send and the request connects to the address that was checked, so a name that later points inside is
 * refused too. Loopback is allowed only with WEBHOOKS_ALLOW_LOOPBACK outside production.
 */

const loopback = new BlockList();
loopback.addSubnet('127.0.0.0', 8, 'ipv4');
loopback.addAddress('::1', 'ipv6');

const internal = new BlockList();
for (const [network, prefix] of [
  ['0.0.0.0', 8],
  ['10.0.0.0', 8],
  ['100.64.0.0', 10],
  ['169.254.0.0', 16],
  ['172.16.0.0', 12],
  ['192.0.0.0', 24],
  ['192.168.0.0', 16],
  ['198.18.0.0', 15],
  ['224.0.0.0', 4],
  ['240.0.0.0', 4],
] as const) {
  internal.addSubnet(network, prefix, 'ipv4');
}
for (const [network, prefix] of [
  ['::', 128],
  ['fc00::', 7],
  ['fe80::', 10],
  ['ff00::', 8],
  ['64:ff9b::', 96],
  ['2001:db8::', 32],
] as const) {
  internal.addSubnet(network, prefix, 'ipv6');
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
  const mapped = /^::ffff:(\d+\.\d+\.\d+\.\d+)$/i.exec(address)?.[1];
  const ip = mapped ?? address;
  const type = isIP(ip) === 6 ? 'ipv6' : 'ipv4';
  if (loopback.check(ip, type)) return allowLoopback ? undefined : 'a loopback address';
  if (internal.check(ip, type)) return 'a private, link-local or metadata address';
  return undefined;
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
