/**
 * The guard on webhook URLs. A subscription URL is chosen by the API caller, so without a guard the
 * service could be made to POST into its own network (server-side request forgery). Every delivery attempt
 * refuses, before connecting, a URL whose host resolves to a private, loopback or link-local address
 * (`CreateWebhookRequest`); this module names the ranges. Every address the host resolves to must be
 * public: one private answer is enough to refuse, because the connection may use any of them.
 * @module
 */
import { lookup } from 'node:dns/promises';
import { BlockList, isIP } from 'node:net';

export interface ResolvedAddress {
  address: string;
  family: 4 | 6;
}

/** Resolves a host name to all its addresses (`dns.lookup` with `all: true` by default). */
export type ResolveHost = (hostname: string) => Promise<ResolvedAddress[]>;

export interface UrlGuardOptions {
  /** Accept private and loopback addresses: for local testing only. */
  allowPrivate?: boolean | undefined;
  /** Accept loopback addresses while still refusing the other ranges: for local testing only. */
  allowLoopback?: boolean | undefined;
  resolve?: ResolveHost | undefined;
}

export type UrlCheck = { ok: true; url: URL; addresses: ResolvedAddress[] } | { ok: false; reason: string };

type Subnet = readonly [network: string, prefix: number, family: 'ipv4' | 'ipv6'];

/**
 * The refused ranges, by name (IANA IPv4 and IPv6 Special-Purpose Address Registries, RFC 6890). Node's
 * BlockList also matches the IPv4-mapped IPv6 form (`::ffff:127.0.0.1`) against the IPv4 rules.
 */
const refusedRanges: ReadonlyArray<{ name: string; subnets: readonly Subnet[] }> = [
  {
    name: 'unspecified',
    subnets: [
      ['0.0.0.0', 8, 'ipv4'],
      ['::', 128, 'ipv6'],
    ],
  },
  {
    name: 'loopback',
    subnets: [
      ['127.0.0.0', 8, 'ipv4'],
      ['::1', 128, 'ipv6'],
    ],
  },
  {
    name: 'private',
    subnets: [
      ['10.0.0.0', 8, 'ipv4'],
      ['172.16.0.0', 12, 'ipv4'],
      ['192.168.0.0', 16, 'ipv4'],
    ],
  },
  { name: 'carrier-grade NAT', subnets: [['100.64.0.0', 10, 'ipv4']] },
  // fec0::/10 is the deprecated site-local range (RFC 3879), private in effect.
  {
    name: 'link-local',
    subnets: [
      ['169.254.0.0', 16, 'ipv4'],
      ['fe80::', 10, 'ipv6'],
      ['fec0::', 10, 'ipv6'],
    ],
  },
  { name: 'unique-local', subnets: [['fc00::', 7, 'ipv6']] },
  {
    name: 'multicast',
    subnets: [
      ['224.0.0.0', 4, 'ipv4'],
      ['ff00::', 8, 'ipv6'],
    ],
  },
  // 240.0.0.0/4 is reserved and holds the limited broadcast address 255.255.255.255.
  { name: 'reserved', subnets: [['240.0.0.0', 4, 'ipv4']] },
  // ::a.b.c.d, the IPv4-compatible form deprecated by RFC 4291 §2.5.5.1; no public host uses it.
  { name: 'IPv4-compatible', subnets: [['::', 96, 'ipv6']] },
  // Prefixes embedding an IPv4 address that a gateway may translate to, private ones included: NAT64
  // (RFC 6052, and the local-use prefix of RFC 8215), SIIT's IPv4-translated form (RFC 2765), 6to4
  // (RFC 3056) and Teredo (RFC 4380). No webhook receiver needs one.
  {
    name: 'IPv4-translation',
    subnets: [
      ['64:ff9b::', 96, 'ipv6'],
      ['64:ff9b:1::', 48, 'ipv6'],
      ['::ffff:0:0:0', 96, 'ipv6'],
      ['2002::', 16, 'ipv6'],
      ['2001::', 32, 'ipv6'],
    ],
  },
  // Not globally reachable (the registries' "Globally Reachable: False"): IETF protocol assignments,
  // documentation, benchmarking and discard-only ranges.
  {
    name: 'non-public',
    subnets: [
      ['192.0.0.0', 24, 'ipv4'],
      ['192.0.2.0', 24, 'ipv4'],
      ['198.18.0.0', 15, 'ipv4'],
      ['198.51.100.0', 24, 'ipv4'],
      ['203.0.113.0', 24, 'ipv4'],
      ['2001:db8::', 32, 'ipv6'],
      ['100::', 64, 'ipv6'],
    ],
  },
];

const blockLists = refusedRanges.map(({ name, subnets }) => {
  const list = new BlockList();
  subnets.forEach(([network, prefix, family]) => list.addSubnet(network, prefix, family));
  return { name, list };
});

/** The name of the refused range holding `address`, or `undefined` for a public address. */
export function refusedRangeOf(address: string): string | undefined {
  const family = isIP(address);
  if (family === 0) {
    throw new Error(`Not an IP address: ${address}`);
  }
  const type = family === 4 ? 'ipv4' : 'ipv6';
  return blockLists.find(({ list }) => list.check(address, type))?.name;
}

export const resolveWithDns: ResolveHost = async (hostname) => {
  const answers = await lookup(hostname, { all: true, verbatim: true });
  return answers.map(({ address, family }) => ({ address, family: family === 6 ? 6 : 4 }));
};

/** The host of a URL as an address or a name: WHATWG URL already writes `0x7f.1` as `127.0.0.1`. */
function hostOf(url: URL): string {
  return url.hostname.startsWith('[') ? url.hostname.slice(1, -1) : url.hostname;
}

/** Checks that `raw` is an http(s) URL whose host resolves only to public addresses. */
export async function checkWebhookUrl(raw: string, options: UrlGuardOptions = {}): Promise<UrlCheck> {
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    return { ok: false, reason: `${JSON.stringify(raw)} is not an absolute URL.` };
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') {
    return { ok: false, reason: `The URL scheme must be http or https, not ${url.protocol.slice(0, -1)}.` };
  }
  const host = hostOf(url);
  const literal = isIP(host);
  let addresses: ResolvedAddress[];
  if (literal === 0) {
    try {
      addresses = await (options.resolve ?? resolveWithDns)(host);
    } catch (error) {
      return { ok: false, reason: `The host ${host} could not be resolved (${(error as Error).message}).` };
    }
  } else {
    addresses = [{ address: host, family: literal === 6 ? 6 : 4 }];
  }
  if (addresses.length === 0) {
    return { ok: false, reason: `The host ${host} resolves to no address.` };
  }
  if (options.allowPrivate !== true) {
    for (const { address } of addresses) {
      const range = refusedRangeOf(address);
      if (range !== undefined && !(range === 'loopback' && options.allowLoopback === true)) {
        const subject = literal === 0 ? `The host ${host} resolves to ${address},` : `The address ${address} is`;
        return { ok: false, reason: `${subject} a ${range} address.` };
      }
    }
  }
  return { ok: true, url, addresses };
}
