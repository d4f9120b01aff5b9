// Remote addresses of migrations and mirrors (Forgejo's forms.ParseRemoteAddr,
// migrations.IsMigrateURLAllowed and modules/hostmatcher). By default only external hosts may be
// reached; [migrations] ALLOW_LOCALNETWORKS opens loopback and private networks (and, here, local
// `file://` repositories), ALLOWED_DOMAINS replaces the default allow list and BLOCKED_DOMAINS
// always wins. Entries are `*`, `external`, `private`, `loopback`, CIDRs or host globs.
import dns from 'node:dns/promises';
import fs from 'node:fs/promises';
import net from 'node:net';
import path from 'node:path';
import type { Config } from '../../config.ts';
import type { RemoteAuth } from '../../git/remote.ts';
import { unprocessable } from '../http/errors.ts';

export interface Remote {
  /** The address git is given: no credentials in it. */
  url: string;
  auth: RemoteAuth | null;
}

const notAllowed = (host: string, why = '') => `migration/cloning from '${host}' is not allowed${why}`;

/** Splits credentials out of the address; fields given separately win, as in Forgejo. */
export function parseRemote(address: string, username = '', password = ''): Remote {
  const addr = address.trim();
  if (/^(https?|git):\/\//i.test(addr)) {
    if (!URL.canParse(addr)) throw unprocessable(notAllowed(addr, ': the provided url is invalid'));
    const u = new URL(addr);
    const user = username || password ? username : decodeURIComponent(u.username);
    const pass = username || password ? password : decodeURIComponent(u.password);
    u.username = '';
    u.password = '';
    return { url: u.toString(), auth: user || pass ? { username: user, password: pass } : null };
  }
  return { url: addr, auth: username || password ? { username, password } : null };
}

/** The address without credentials, as shown in `original_url` and `remote_address`. */
export const sanitizeUrl = (address: string) => parseRemote(address).url;

const V4_PRIVATE = [
  ['10.0.0.0', 8],
  ['172.16.0.0', 12],
  ['192.168.0.0', 16],
  ['169.254.0.0', 16],
] as const;
const V6_PRIVATE = [
  ['fc00::', 7],
  ['fe80::', 10],
] as const;
const privateNets = new net.BlockList();
for (const [a, p] of V4_PRIVATE) privateNets.addSubnet(a, p, 'ipv4');
for (const [a, p] of V6_PRIVATE) privateNets.addSubnet(a, p, 'ipv6');
const loopbackNets = new net.BlockList();
loopbackNets.addSubnet('127.0.0.0', 8, 'ipv4');
loopbackNets.addAddress('::1', 'ipv6');

function family(ip: string): { ip: string; type: 'ipv4' | 'ipv6' } {
  const mapped = /^::ffff:(\d+\.\d+\.\d+\.\d+)$/i.exec(ip);
  if (mapped) return { ip: mapped[1], type: 'ipv4' };
  return { ip, type: net.isIPv4(ip) ? 'ipv4' : 'ipv6' };
}
const isLoopback = (ip: string) => {
  const f = family(ip);
  return loopbackNets.check(f.ip, f.type);
};
const isPrivate = (ip: string) => {
  const f = family(ip);
  return privateNets.check(f.ip, f.type);
};
/** Go's IsGlobalUnicast && !IsPrivate: not loopback, link-local, multicast or unspecified. */
function isExternal(ip: string): boolean {
  const f = family(ip);
  if (isLoopback(ip) || isPrivate(ip)) return false;
  if (f.type === 'ipv4') {
    const first = Number(f.ip.split('.')[0]);
    return first !== 0 && first < 224 && f.ip !== '255.255.255.255';
  }
  return f.ip !== '::' && !/^ff/i.test(f.ip);
}

/** Forgejo's hostmatcher list: `*`, `external`, `private`, `loopback`, CIDRs and host globs. */
export class HostList {
  private builtins = new Set<string>();
  private nets = new net.BlockList();
  private hasNets = false;
  private globs: RegExp[] = [];
  constructor(spec: string) {
    for (const raw of spec
      .split(',')
      .map((x) => x.trim().toLowerCase())
      .filter((x) => x !== '')) {
      if (['*', 'external', 'private', 'loopback'].includes(raw)) this.builtins.add(raw);
      else if (raw.includes('/') && net.isIP(raw.split('/')[0])) {
        const [addr, prefix] = raw.split('/');
        this.nets.addSubnet(addr, Number(prefix), net.isIPv4(addr) ? 'ipv4' : 'ipv6');
        this.hasNets = true;
      } else
        this.globs.push(
          new RegExp(
            `^${raw
              .replace(/[.+^${}()|[\]\\]/g, '\\$&')
              .replaceAll('*', '.*')
              .replaceAll('?', '.')}$`,
          ),
        );
    }
  }
  add(builtin: string): this {
    this.builtins.add(builtin);
    return this;
  }
  get empty() {
    return this.builtins.size === 0 && !this.hasNets && this.globs.length === 0;
  }
  matchHost(host: string): boolean {
    if (this.builtins.has('*')) return true;
    return this.globs.some((g) => g.test(host.toLowerCase()));
  }
  matchIp(ip: string): boolean {
    if (this.builtins.has('*')) return true;
    if (this.builtins.has('external') && isExternal(ip)) return true;
    if (this.builtins.has('private') && isPrivate(ip)) return true;
    if (this.builtins.has('loopback') && isLoopback(ip)) return true;
    const f = family(ip);
    return this.hasNets && this.nets.check(f.ip, f.type);
  }
}

/** 422 unless the instance's settings allow reaching this (credential-free) address. */
export async function checkRemoteAllowed(cfg: Config, address: string): Promise<void> {
  const local = cfg.MIGRATIONS.ALLOW_LOCALNETWORKS;
  if (/^file:\/\//i.test(address) || !/^[a-z][a-z0-9+.-]*:/i.test(address)) {
    if (!local) throw unprocessable('You are not allowed to import local repositories.');
    const p = /^file:\/\//i.test(address) ? decodeURIComponent(new URL(address).pathname) : address;
    const isDir =
      path.isAbsolute(p) &&
      (await fs.stat(p).then(
        (st) => st.isDirectory(),
        () => false,
      ));
    if (!isDir) throw unprocessable('Invalid local path, it does not exist or not a directory.');
    return;
  }
  if (!URL.canParse(address)) throw unprocessable(notAllowed(address, ': the provided url is invalid'));
  const u = new URL(address);
  if (!['http:', 'https:', 'git:'].includes(u.protocol))
    throw unprocessable(notAllowed(u.host, ': the provided url protocol is not allowed'));
  const host = u.hostname.replace(/^\[|\]$/g, '');
  const allow = new HostList(cfg.MIGRATIONS.ALLOWED_DOMAINS);
  if (allow.empty) allow.add('external');
  if (local) allow.add('private').add('loopback');
  const block = new HostList(cfg.MIGRATIONS.BLOCKED_DOMAINS);
  // Some hosts only resolve through a proxy: a failed lookup leaves only the name to match.
  const addrs = net.isIP(host) ? [host] : (await dns.lookup(host, { all: true }).catch(() => [])).map((a) => a.address);
  const disallowed = () => unprocessable('You can not import from disallowed hosts.');
  if (block.matchHost(host) || addrs.some((a) => block.matchIp(a))) throw disallowed();
  if (!allow.matchHost(host) && !addrs.some((a) => allow.matchIp(a))) throw disallowed();
}
