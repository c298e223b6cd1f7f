import { describe, expect, test, vi } from 'vitest';
import { checkWebhookUrl, refusedRangeOf, type ResolveHost } from '../../src/webhooks/url-guard.js';

/** A resolver answering from a table: these tests never query DNS. */
function resolver(table: Record<string, string[]>): ResolveHost {
  return vi.fn(async (hostname: string) => {
    const addresses = table[hostname];
    if (addresses === undefined) {
      throw new Error(`getaddrinfo ENOTFOUND ${hostname}`);
    }
    return addresses.map((address) => ({ address, family: address.includes(':') ? 6 : 4 }) as const);
  });
}

const noDns = resolver({});

describe('literal addresses', () => {
  test.each([
    ['http://127.0.0.1/hook', 'loopback'],
    ['http://127.8.9.10:8080/hook', 'loopback'],
    ['http://0x7f.1/hook', 'loopback'],
    ['http://2130706433/hook', 'loopback'],
    ['http://10.1.2.3/', 'private'],
    ['http://172.16.0.1/', 'private'],
    ['http://172.31.255.255/', 'private'],
    ['http://192.168.1.1/', 'private'],
    ['http://100.64.0.1/', 'carrier-grade NAT'],
    ['http://100.127.255.254/', 'carrier-grade NAT'],
    ['http://169.254.169.254/latest/meta-data/', 'link-local'],
    ['http://0.0.0.0/', 'unspecified'],
    ['http://224.0.0.1/', 'multicast'],
    ['http://255.255.255.255/', 'reserved'],
    ['http://[::1]/', 'loopback'],
    ['http://[0:0::1]/', 'loopback'],
    ['http://[::]/', 'unspecified'],
    ['http://[fe80::1]/', 'link-local'],
    ['http://[fc00::1]/', 'unique-local'],
    ['http://[fd12:3456::1]/', 'unique-local'],
    ['http://[ff02::1]/', 'multicast'],
    ['http://[::ffff:127.0.0.1]/', 'loopback'],
    ['http://[::ffff:a9fe:a9fe]/', 'link-local'],
    ['http://[::ffff:10.0.0.1]/', 'private'],
    ['http://[::ffff:100.64.0.1]/', 'carrier-grade NAT'],
    ['http://[::127.0.0.1]/', 'IPv4-compatible'],
  ])('%s is refused (%s)', async (url, range) => {
    const result = await checkWebhookUrl(url, { resolve: noDns });
    expect(result).toEqual({ ok: false, reason: expect.stringContaining(`a ${range} address`) });
    expect(noDns).not.toHaveBeenCalled();
  });

  test.each([
    'https://93.184.216.34/hook',
    'http://172.32.0.1/',
    'http://100.128.0.1/',
    'http://8.8.8.8:8080/x',
    'https://[2606:2800:220:1:248:1893:25c8:1946]/',
    'https://[::ffff:8.8.8.8]/',
  ])('%s is accepted', async (url) => {
    expect(await checkWebhookUrl(url, { resolve: noDns })).toMatchObject({ ok: true });
  });

  test('allowPrivate lets loopback through, for local testing', async () => {
    const result = await checkWebhookUrl('http://127.0.0.1:3000/hook', { allowPrivate: true, resolve: noDns });
    expect(result).toMatchObject({ ok: true, addresses: [{ address: '127.0.0.1', family: 4 }] });
  });

  test('allowLoopback lets loopback through and still refuses the other private ranges', async () => {
    for (const url of ['http://127.0.0.1:3000/hook', 'http://[::1]/hook', 'http://[::ffff:127.0.0.1]/']) {
      expect(await checkWebhookUrl(url, { allowLoopback: true, resolve: noDns })).toMatchObject({ ok: true });
    }
    for (const url of [
      'http://10.0.0.7/hooks',
      'http://169.254.169.254/latest/meta-data',
      'http://192.168.1.20:8080/hooks',
      'http://[fe80::1]/',
    ]) {
      expect(await checkWebhookUrl(url, { allowLoopback: true, resolve: noDns })).toMatchObject({ ok: false });
    }
  });
});

describe('host names', () => {
  const dns = resolver({
    localhost: ['127.0.0.1', '::1'],
    'hooks.example.com': ['93.184.216.34', '2606:2800:220:1:248:1893:25c8:1946'],
    'split.example.com': ['93.184.216.34', '10.0.0.7'],
    'empty.example.com': [],
  });

  test('localhost is refused', async () => {
    expect(await checkWebhookUrl('http://localhost:8080/hook', { resolve: dns })).toEqual({
      ok: false,
      reason: 'The host localhost resolves to 127.0.0.1, a loopback address.',
    });
  });

  test('a name resolving only to public addresses is accepted with all of them', async () => {
    expect(await checkWebhookUrl('https://hooks.example.com/in', { resolve: dns })).toMatchObject({
      ok: true,
      addresses: [{ address: '93.184.216.34' }, { address: '2606:2800:220:1:248:1893:25c8:1946' }],
    });
  });

  test('one private answer among public ones is enough to refuse', async () => {
    expect(await checkWebhookUrl('https://split.example.com/in', { resolve: dns })).toMatchObject({
      ok: false,
      reason: expect.stringContaining('10.0.0.7, a private address'),
    });
  });

  test('a name that does not resolve, or resolves to nothing, is refused', async () => {
    expect(await checkWebhookUrl('https://nowhere.example.com/', { resolve: dns })).toMatchObject({
      ok: false,
      reason: expect.stringContaining('could not be resolved'),
    });
    expect(await checkWebhookUrl('https://empty.example.com/', { resolve: dns })).toMatchObject({ ok: false });
  });

  test('allowPrivate accepts localhost', async () => {
    const result = await checkWebhookUrl('http://localhost/', { resolve: dns, allowPrivate: true });
    expect(result).toMatchObject({ ok: true });
  });
});

describe('schemes and shapes', () => {
  const unusable = [
    'ftp://93.184.216.34/',
    'file:///etc/passwd',
    'javascript:alert(1)',
    'gopher://8.8.8.8/',
    'hooks.example.com/in',
    '',
  ];
  test.each(unusable)('%j is refused', async (url) => {
    expect(await checkWebhookUrl(url, { resolve: noDns, allowPrivate: true })).toMatchObject({ ok: false });
  });
});

test('refusedRangeOf names ranges and passes public addresses', () => {
  expect(refusedRangeOf('192.168.0.1')).toBe('private');
  expect(refusedRangeOf('1.1.1.1')).toBeUndefined();
  expect(refusedRangeOf('2001:4860:4860::8888')).toBeUndefined();
  expect(() => refusedRangeOf('localhost')).toThrow(/Not an IP address/);
});
