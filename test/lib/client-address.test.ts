// The client address the limits on failed authentication count by (lib/http/client-address.ts): the
// peer's, unless the peer is a trusted proxy, whose X-Forwarded-For (or X-Real-IP) then counts, as
// many entries from the right as [security] REVERSE_PROXY_LIMIT says.
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { loadConfig } from '../../config.ts';
import { clientAddressOf } from '../../lib/http/client-address.ts';

const addressOf = (o: Record<string, string> = {}) => clientAddressOf(loadConfig({}, o));

test('fixtures', () => {
  const cases: [string, Record<string, string>, string | undefined, Record<string, string>, string][] = [
    ['a direct client is its peer address', {}, '203.0.113.7', {}, '203.0.113.7'],
    ['a direct client cannot name another address', {}, '203.0.113.7', { 'x-forwarded-for': '198.51.100.1' }, '203.0.113.7'],
    ['a trusted proxy (loopback by default) names the client', {}, '127.0.0.1', { 'x-forwarded-for': '198.51.100.1' }, '198.51.100.1'],
    ['IPv4-mapped loopback is loopback', {}, '::ffff:127.0.0.1', { 'x-forwarded-for': '198.51.100.1' }, '198.51.100.1'],
    ['only the entry the proxy added counts (limit 1)', {}, '127.0.0.1', { 'x-forwarded-for': '10.9.9.9, 198.51.100.1' }, '198.51.100.1'],
    [
      'two trusted hops with limit 2',
      { SECURITY__REVERSE_PROXY_LIMIT: '2' },
      '127.0.0.1',
      { 'x-forwarded-for': '198.51.100.1, 10.0.0.2' },
      '198.51.100.1',
    ],
    ['X-Real-IP when there is no X-Forwarded-For', {}, '::1', { 'x-real-ip': '198.51.100.2' }, '198.51.100.2'],
    ['garbage in the header is ignored', {}, '127.0.0.1', { 'x-forwarded-for': 'not an address' }, '127.0.0.1'],
    [
      'limit 0 ignores the headers',
      { SECURITY__REVERSE_PROXY_LIMIT: '0' },
      '127.0.0.1',
      { 'x-forwarded-for': '198.51.100.1' },
      '127.0.0.1',
    ],
    [
      'no trusted proxies',
      { SECURITY__REVERSE_PROXY_TRUSTED_PROXIES: '' },
      '127.0.0.1',
      { 'x-forwarded-for': '198.51.100.1' },
      '127.0.0.1',
    ],
    [
      'a trusted network',
      { SECURITY__REVERSE_PROXY_TRUSTED_PROXIES: '10.0.0.0/8' },
      '10.1.2.3',
      { 'x-forwarded-for': '198.51.100.1' },
      '198.51.100.1',
    ],
  ];
  for (const [name, settings, peer, headers, want] of cases) assert.is(addressOf(settings)(peer, headers), want, name);
});

test.run();
