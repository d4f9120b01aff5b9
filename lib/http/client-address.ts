// The address a request comes from, for the limits on failed authentication (lib/auth/limits.ts).
// As in Forgejo ([security] REVERSE_PROXY_TRUSTED_PROXIES and REVERSE_PROXY_LIMIT): X-Forwarded-For
// (or X-Real-IP) is believed only from a trusted proxy, and only as many of its entries, counted from
// the right, as there are proxies to trust; anyone else could name any address there and so escape the
// per-address limit, or pin it on someone else.
import net from 'node:net';
import type { Config } from '../../config.ts';

export type AddressOf = (peer: string | undefined, headers: Record<string, string | string[] | undefined>) => string;

const plain = (ip: string) => ip.replace(/^::ffff:(\d+\.\d+\.\d+\.\d+)$/i, '$1');

export function clientAddressOf(cfg: Config): AddressOf {
  const trusted = new net.BlockList();
  for (const entry of cfg.SECURITY.REVERSE_PROXY_TRUSTED_PROXIES.split(',')
    .map((x) => x.trim())
    .filter((x) => x !== '')) {
    const [addr, prefix] = entry.split('/');
    const type = net.isIPv6(addr) ? 'ipv6' : 'ipv4';
    if (!net.isIP(addr)) continue;
    if (prefix === undefined) trusted.addAddress(addr, type);
    else trusted.addSubnet(addr, Number(prefix), type);
  }
  const limit = cfg.SECURITY.REVERSE_PROXY_LIMIT;
  const isTrusted = (ip: string) => net.isIP(ip) !== 0 && trusted.check(ip, net.isIPv6(ip) ? 'ipv6' : 'ipv4');
  return (peer, headers) => {
    const direct = plain(peer ?? '');
    if (limit <= 0 || !isTrusted(direct)) return direct;
    const header = (name: string) => {
      const v = headers[name];
      return Array.isArray(v) ? v.join(',') : (v ?? '');
    };
    const hops = header('x-forwarded-for')
      .split(',')
      .map((x) => plain(x.trim()))
      .filter((x) => net.isIP(x) !== 0);
    if (hops.length === 0) {
      const real = plain(header('x-real-ip').trim());
      return net.isIP(real) ? real : direct;
    }
    // Each trusted proxy appended the address it saw; the leftmost ones are the client's own words.
    return hops[Math.max(0, hops.length - limit)];
  };
}
