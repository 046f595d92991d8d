/**
 * Which kind of network an IP address belongs to, for the outgoing-request policy
 * (docs/outbound-http.md): webhooks and callbacks may only reach `public` addresses unless the
 * installation allows private targets.
 *
 * Pure: no I/O and no `node:net`. The input is an address as `dns.lookup` or the WHATWG URL parser
 * gives it: IPv4 as a canonical dotted quad (`127.0.0.1`), IPv6 in any valid text form, with or
 * without brackets and zone (`[fe80::1%eth0]`). Anything else, including the odd IPv4 spellings
 * some parsers accept (`2130706433`, `0177.0.0.1`, `0x7f.1`, `127.1`), is not parsed: it is
 * classified `reserved`, so that it can never pass as `public`. (The URL parser turns those
 * spellings into dotted quads before this function sees them.)
 */

export type AddressClass = 'public' | 'loopback' | 'private' | 'link-local' | 'unspecified' | 'multicast' | 'reserved';

interface Range<N> {
  readonly base: N;
  readonly prefix: number;
  readonly kind: Exclude<AddressClass, 'public'>;
  readonly note: string;
}

/** 4, 6, or null when the text is not an IP address this module parses. */
export function ipFamily(text: string): 4 | 6 | null {
  if (parseIPv4(text) !== null) return 4;
  if (parseIPv6(text) !== null) return 6;
  return null;
}

/** A canonical dotted quad as an unsigned 32-bit number, or null. Leading zeros are refused (octal elsewhere). */
export function parseIPv4(text: string): number | null {
  const match = /^(\d{1,3})\.(\d{1,3})\.(\d{1,3})\.(\d{1,3})$/.exec(text);
  if (!match) return null;
  let value = 0;
  for (const part of match.slice(1)) {
    if (part.length > 1 && part.startsWith('0')) return null;
    const octet = Number(part);
    if (octet > 255) return null;
    value = value * 256 + octet;
  }
  return value;
}

/** An IPv6 address as a 128-bit bigint, or null. Accepts brackets, a zone (`%eth0`) and an embedded dotted quad. */
export function parseIPv6(text: string): bigint | null {
  let s = text;
  if (s.startsWith('[') && s.endsWith(']')) s = s.slice(1, -1);
  const zone = s.indexOf('%');
  if (zone !== -1) {
    if (zone === s.length - 1) return null;
    s = s.slice(0, zone);
  }
  if (!/^[0-9A-Fa-f:.]+$/.test(s)) return null;
  const halves = s.split('::');
  if (halves.length > 2) return null;
  const groups = (part: string): number[] | null => {
    if (part === '') return [];
    const out: number[] = [];
    const pieces = part.split(':');
    for (let i = 0; i < pieces.length; i++) {
      const piece = pieces[i]!;
      if (i === pieces.length - 1 && piece.includes('.')) {
        const v4 = parseIPv4(piece);
        if (v4 === null) return null;
        out.push(Math.floor(v4 / 65536), v4 % 65536);
      } else if (/^[0-9A-Fa-f]{1,4}$/.test(piece)) {
        out.push(parseInt(piece, 16));
      } else {
        return null;
      }
    }
    return out;
  };
  const head = groups(halves[0]!);
  if (head === null) return null;
  let words: number[];
  if (halves.length === 2) {
    const tail = groups(halves[1]!);
    if (tail === null) return null;
    // A dotted quad may only end the address.
    if (halves[0]!.includes('.')) return null;
    if (head.length + tail.length > 7) return null;
    words = [...head, ...new Array<number>(8 - head.length - tail.length).fill(0), ...tail];
  } else {
    if (head.length !== 8) return null;
    words = head;
  }
  let value = 0n;
  for (const word of words) value = (value << 16n) | BigInt(word);
  return value;
}

const v4 = (text: string): number => {
  const value = parseIPv4(text);
  if (value === null) throw new Error(`bad IPv4 range base ${text}`);
  return value;
};
const v6 = (text: string): bigint => {
  const value = parseIPv6(text);
  if (value === null) throw new Error(`bad IPv6 range base ${text}`);
  return value;
};

/**
 * The IPv4 special-purpose ranges (IANA registry, RFC 6890 and successors), first match wins.
 * Ranges the registry marks globally reachable but that no webhook receiver lives in
 * (192.88.99/24, the deprecated 6to4 relay anycast) are reserved too.
 */
export const IPV4_RANGES: readonly Range<number>[] = [
  { base: v4('0.0.0.0'), prefix: 8, kind: 'unspecified', note: '"this network" (Linux connects 0.0.0.0 to the local host)' },
  { base: v4('10.0.0.0'), prefix: 8, kind: 'private', note: 'RFC 1918' },
  { base: v4('100.64.0.0'), prefix: 10, kind: 'private', note: 'shared address space, carrier-grade NAT (RFC 6598)' },
  { base: v4('127.0.0.0'), prefix: 8, kind: 'loopback', note: 'loopback' },
  { base: v4('169.254.0.0'), prefix: 16, kind: 'link-local', note: 'link-local, including cloud metadata at 169.254.169.254' },
  { base: v4('172.16.0.0'), prefix: 12, kind: 'private', note: 'RFC 1918' },
  { base: v4('192.0.0.0'), prefix: 24, kind: 'reserved', note: 'IETF protocol assignments' },
  { base: v4('192.0.2.0'), prefix: 24, kind: 'reserved', note: 'documentation (TEST-NET-1)' },
  { base: v4('192.88.99.0'), prefix: 24, kind: 'reserved', note: 'deprecated 6to4 relay anycast' },
  { base: v4('192.168.0.0'), prefix: 16, kind: 'private', note: 'RFC 1918' },
  { base: v4('198.18.0.0'), prefix: 15, kind: 'reserved', note: 'benchmarking' },
  { base: v4('198.51.100.0'), prefix: 24, kind: 'reserved', note: 'documentation (TEST-NET-2)' },
  { base: v4('203.0.113.0'), prefix: 24, kind: 'reserved', note: 'documentation (TEST-NET-3)' },
  { base: v4('224.0.0.0'), prefix: 4, kind: 'multicast', note: 'multicast' },
  // 255.255.255.255 (limited broadcast) lies in 240/4 and is reserved with it.
  { base: v4('240.0.0.0'), prefix: 4, kind: 'reserved', note: 'reserved for future use, and the broadcast address' },
];

/**
 * IPv6 ranges, first match wins. Public means inside 2000::/3 (global unicast) and none of the
 * carve-outs below; everything outside 2000::/3 that is not listed is unallocated: reserved.
 * IPv4-mapped (::ffff:0:0/96), NAT64 (64:ff9b::/96) and 6to4 (2002::/16) addresses are
 * classified by the IPv4 address they carry, in `classifyAddress` before this table.
 */
export const IPV6_RANGES: readonly Range<bigint>[] = [
  { base: v6('::'), prefix: 128, kind: 'unspecified', note: 'unspecified' },
  { base: v6('::1'), prefix: 128, kind: 'loopback', note: 'loopback' },
  { base: v6('64:ff9b:1::'), prefix: 48, kind: 'private', note: 'local-use IPv4/IPv6 translation (RFC 8215)' },
  { base: v6('2001::'), prefix: 23, kind: 'reserved', note: 'IETF protocol assignments: Teredo, benchmarking, ORCHID' },
  { base: v6('2001:db8::'), prefix: 32, kind: 'reserved', note: 'documentation' },
  { base: v6('3fff::'), prefix: 20, kind: 'reserved', note: 'documentation (RFC 9637)' },
  { base: v6('5f00::'), prefix: 16, kind: 'reserved', note: 'segment routing SIDs (RFC 9602)' },
  { base: v6('fc00::'), prefix: 7, kind: 'private', note: 'unique local' },
  { base: v6('fe80::'), prefix: 10, kind: 'link-local', note: 'link-local' },
  { base: v6('fec0::'), prefix: 10, kind: 'private', note: 'site-local (deprecated)' },
  { base: v6('ff00::'), prefix: 8, kind: 'multicast', note: 'multicast' },
];

const IPV4_MAPPED = v6('::ffff:0.0.0.0');
const NAT64_WELL_KNOWN = v6('64:ff9b::');
const SIX_TO_FOUR = v6('2002::');
const GLOBAL_UNICAST = v6('2000::');

function inV4(address: number, range: Range<number>): boolean {
  const size = 2 ** (32 - range.prefix);
  return Math.floor(address / size) === Math.floor(range.base / size);
}

function inV6(address: bigint, base: bigint, prefix: number): boolean {
  const shift = BigInt(128 - prefix);
  return address >> shift === base >> shift;
}

export function classifyIPv4(address: number): AddressClass {
  return IPV4_RANGES.find((range) => inV4(address, range))?.kind ?? 'public';
}

export function classifyIPv6(address: bigint): AddressClass {
  // Forms that carry an IPv4 address are as dangerous as that address. The NAT64 well-known
  // prefix must not carry non-global IPv4 addresses (RFC 6052, section 3.1), but a translator that
  // does translate them would reach the private network: such an address gets its IPv4 class.
  // 6to4 likewise: 2002:0a00:0001:: reaches 10.0.0.1 behind the relay.
  if (inV6(address, IPV4_MAPPED, 96) || inV6(address, NAT64_WELL_KNOWN, 96)) {
    return classifyIPv4(Number(address & 0xffffffffn));
  }
  if (inV6(address, SIX_TO_FOUR, 16)) return classifyIPv4(Number((address >> 80n) & 0xffffffffn));
  const special = IPV6_RANGES.find((range) => inV6(address, range.base, range.prefix));
  if (special) return special.kind;
  return inV6(address, GLOBAL_UNICAST, 3) ? 'public' : 'reserved';
}

/**
 * The class of an IP address (see the module comment for the accepted forms). Text that is not
 * an IP address in those forms is `reserved`: this never says `public` about something it did not
 * understand.
 */
export function classifyAddress(ip: string): AddressClass {
  const four = parseIPv4(ip);
  if (four !== null) return classifyIPv4(four);
  const six = parseIPv6(ip);
  if (six !== null) return classifyIPv6(six);
  return 'reserved';
}
