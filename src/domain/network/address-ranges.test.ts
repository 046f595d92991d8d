import { describe, expect, it } from 'vitest';
import { classifyAddress, ipFamily, parseIPv4, parseIPv6 } from './address-ranges.js';
import type { AddressClass } from './address-ranges.js';

const table = (rows: [string, AddressClass][]) => rows;

describe('classifyAddress, IPv4', () => {
  it.each(
    table([
      // 0.0.0.0/8
      ['0.0.0.0', 'unspecified'],
      ['0.255.255.255', 'unspecified'],
      ['1.0.0.0', 'public'],
      ['1.1.1.1', 'public'],
      ['8.8.8.8', 'public'],
      // 10/8
      ['9.255.255.255', 'public'],
      ['10.0.0.0', 'private'],
      ['10.0.0.1', 'private'],
      ['10.255.255.255', 'private'],
      ['11.0.0.0', 'public'],
      // 100.64/10 (CGNAT)
      ['100.63.255.255', 'public'],
      ['100.64.0.0', 'private'],
      ['100.127.255.255', 'private'],
      ['100.128.0.0', 'public'],
      // 127/8
      ['126.255.255.255', 'public'],
      ['127.0.0.0', 'loopback'],
      ['127.0.0.1', 'loopback'],
      ['127.0.0.2', 'loopback'],
      ['127.255.255.255', 'loopback'],
      ['128.0.0.0', 'public'],
      // 169.254/16
      ['169.253.255.255', 'public'],
      ['169.254.0.0', 'link-local'],
      ['169.254.169.254', 'link-local'],
      ['169.254.255.255', 'link-local'],
      ['169.255.0.0', 'public'],
      // 172.16/12
      ['172.15.255.255', 'public'],
      ['172.16.0.0', 'private'],
      ['172.31.255.255', 'private'],
      ['172.32.0.0', 'public'],
      // 192.0.0/24, 192.0.2/24
      ['191.255.255.255', 'public'],
      ['192.0.0.0', 'reserved'],
      ['192.0.0.255', 'reserved'],
      ['192.0.1.0', 'public'],
      ['192.0.2.0', 'reserved'],
      ['192.0.2.255', 'reserved'],
      ['192.0.3.0', 'public'],
      ['192.88.99.1', 'reserved'],
      // 192.168/16
      ['192.167.255.255', 'public'],
      ['192.168.0.0', 'private'],
      ['192.168.1.1', 'private'],
      ['192.168.255.255', 'private'],
      ['192.169.0.0', 'public'],
      // 198.18/15
      ['198.17.255.255', 'public'],
      ['198.18.0.0', 'reserved'],
      ['198.19.255.255', 'reserved'],
      ['198.20.0.0', 'public'],
      // 198.51.100/24, 203.0.113/24
      ['198.51.99.255', 'public'],
      ['198.51.100.0', 'reserved'],
      ['198.51.100.255', 'reserved'],
      ['198.51.101.0', 'public'],
      ['203.0.112.255', 'public'],
      ['203.0.113.0', 'reserved'],
      ['203.0.113.255', 'reserved'],
      ['203.0.114.0', 'public'],
      // 224/4, 240/4, broadcast
      ['223.255.255.255', 'public'],
      ['224.0.0.0', 'multicast'],
      ['239.255.255.255', 'multicast'],
      ['240.0.0.0', 'reserved'],
      ['254.255.255.255', 'reserved'],
      ['255.255.255.255', 'reserved'],
    ]),
  )('%s is %s', (ip, expected) => {
    expect(classifyAddress(ip)).toBe(expected);
  });
});

describe('classifyAddress, IPv6', () => {
  it.each(
    table([
      ['::', 'unspecified'],
      ['0:0:0:0:0:0:0:0', 'unspecified'],
      ['::1', 'loopback'],
      ['0:0:0:0:0:0:0:1', 'loopback'],
      ['[::1]', 'loopback'],
      ['::2', 'reserved'],
      // IPv4-mapped: the IPv4 address's class
      ['::ffff:10.0.0.1', 'private'],
      ['::ffff:a00:1', 'private'],
      ['[::ffff:a00:1]', 'private'],
      ['::ffff:127.0.0.1', 'loopback'],
      ['::ffff:7f00:1', 'loopback'],
      ['::ffff:169.254.169.254', 'link-local'],
      ['::ffff:0.0.0.0', 'unspecified'],
      ['::ffff:224.0.0.1', 'multicast'],
      ['::ffff:8.8.8.8', 'public'],
      ['0:0:0:0:0:ffff:808:808', 'public'],
      // IPv4-compatible (deprecated) and IPv4-translated (SIIT): reserved whatever they carry
      ['::8.8.8.8', 'reserved'],
      ['::7f00:1', 'reserved'],
      ['::ffff:0:8.8.8.8', 'reserved'],
      // NAT64 well-known prefix: the embedded IPv4 address's class
      ['64:ff9b::8.8.8.8', 'public'],
      ['64:ff9b::10.0.0.1', 'private'],
      ['64:ff9b::a00:1', 'private'],
      ['64:ff9b::127.0.0.1', 'loopback'],
      ['64:ff9b::169.254.169.254', 'link-local'],
      ['64:ff9b:1::1', 'private'],
      // 6to4: the embedded IPv4 address's class
      ['2002:808:808::1', 'public'],
      ['2002:a00:1::1', 'private'],
      ['2002:7f00:1::', 'loopback'],
      // Special blocks inside 2000::/3
      ['2001::1', 'reserved'],
      ['2001:1ff:ffff::1', 'reserved'],
      ['2001:200::1', 'public'],
      ['2001:db7:ffff:ffff:ffff:ffff:ffff:ffff', 'public'],
      ['2001:db8::', 'reserved'],
      ['2001:db8:ffff:ffff:ffff:ffff:ffff:ffff', 'reserved'],
      ['2001:db9::', 'public'],
      ['3fff::1', 'reserved'],
      ['3fff:fff::1', 'reserved'],
      ['3fff:1000::1', 'public'],
      ['5f00::1', 'reserved'],
      ['2606:4700:4700::1111', 'public'],
      ['2a00:1450:4001:80b::200e', 'public'],
      ['1fff:ffff::', 'reserved'],
      ['4000::1', 'reserved'],
      ['100::1', 'reserved'],
      // fc00::/7
      ['fbff:ffff::', 'reserved'],
      ['fc00::', 'private'],
      ['fd12:3456:789a::1', 'private'],
      ['fdff:ffff:ffff:ffff:ffff:ffff:ffff:ffff', 'private'],
      // fe80::/10, fec0::/10
      ['fe7f:ffff::', 'reserved'],
      ['fe80::', 'link-local'],
      ['fe80::1%eth0', 'link-local'],
      ['[fe80::1%25eth0]', 'link-local'],
      ['febf:ffff::', 'link-local'],
      ['fec0::1', 'private'],
      // ff00::/8
      ['ff00::', 'multicast'],
      ['ff02::1', 'multicast'],
      ['FF05::1:3', 'multicast'],
    ]),
  )('%s is %s', (ip, expected) => {
    expect(classifyAddress(ip)).toBe(expected);
  });
});

describe('text that is not a canonical address is never public', () => {
  it.each([
    '2130706433', // 127.0.0.1 in decimal
    '0177.0.0.1', // octal
    '0x7f.1', // hex
    '0x7f000001',
    '127.1',
    '010.0.0.1',
    '1.2.3.256',
    '1.2.3',
    '1.2.3.4.5',
    ' 8.8.8.8',
    '8.8.8.8 ',
    'example.com',
    'localhost',
    '',
    ':::',
    '1::2::3',
    '1:2:3:4:5:6:7:8:9',
    '1:2:3:4:5:6:7',
    '12345::',
    '::1.2.3.4:5',
    '1.2.3.4::',
    'fe80::1%',
    '::ffff:1.2.3.04',
  ])('%j is reserved', (text) => {
    expect(classifyAddress(text)).toBe('reserved');
  });
});

describe('parsing', () => {
  it('reads dotted quads', () => {
    expect(parseIPv4('0.0.0.0')).toBe(0);
    expect(parseIPv4('255.255.255.255')).toBe(0xffffffff);
    expect(parseIPv4('127.0.0.1')).toBe(0x7f000001);
  });

  it('reads every IPv6 text form to the same number', () => {
    const expected = 0x20010db8000000000000000000000001n;
    for (const text of [
      '2001:db8::1',
      '2001:DB8:0:0:0:0:0:1',
      '2001:0db8:0000:0000:0000:0000:0000:0001',
      '[2001:db8::1]',
      '2001:db8::0.0.0.1',
    ]) {
      expect(parseIPv6(text)).toBe(expected);
    }
    expect(parseIPv6('1:2:3:4:5:6:7::')).toBe(0x00010002000300040005000600070000n);
    expect(parseIPv6('::2:3:4:5:6:7:8')).toBe(0x00000002000300040005000600070008n);
  });

  it('tells the families apart', () => {
    expect(ipFamily('10.0.0.1')).toBe(4);
    expect(ipFamily('::1')).toBe(6);
    expect(ipFamily('[::1]')).toBe(6);
    expect(ipFamily('example.com')).toBe(null);
    expect(ipFamily('2130706433')).toBe(null);
  });
});
