// The HTTP request of one webhook delivery, sent with Node's client to an address that passed
// `[webhook] ALLOWED_HOST_LIST`, with the delivery timeout and TLS setting, and the answer kept (body cut).
import dns from 'node:dns/promises';
import http from 'node:http';
import https from 'node:https';
import net from 'node:net';
import type { Config } from '../../config.ts';
import type { HookResponseInfo } from '../../model/webhook.ts';
import { HostList } from '../mirrors/index.ts';

/** Response bodies are kept up to this many bytes (the rest is cut). */
const BODY_LIMIT = 64 * 1024;

/** The destination is not allowed: retrying cannot help until the setting changes. */
export class RefusedHost extends Error {}

/** [webhook] ALLOWED_HOST_LIST (empty: external hosts only), matched on the name and on every address it resolves to. */
async function allowedAddress(cfg: Config, host: string): Promise<{ address: string; family: number }> {
  const allow = new HostList(cfg.WEBHOOK.ALLOWED_HOST_LIST);
  if (allow.empty) allow.add('external');
  const addrs = net.isIP(host) ? [{ address: host, family: net.isIP(host) }] : await dns.lookup(host, { all: true });
  const ok = allow.matchHost(host) ? addrs[0] : addrs.find((a) => allow.matchIp(a.address));
  if (!ok) {
    throw new RefusedHost(
      `webhook can only call allowed HTTP servers (check your webhook.ALLOWED_HOST_LIST setting), deny '${host}(${addrs.map((a) => a.address).join(',')})'`,
    );
  }
  return ok;
}

/** A `lookup` that answers the checked address, in both callback forms (`all` is asked for with autoSelectFamily). */
function pinnedLookup(target: { address: string; family: number }): net.LookupFunction {
  return ((_host: string, opts: { all?: boolean }, cb: (...args: unknown[]) => void) => {
    if (opts.all) cb(null, [{ address: target.address, family: target.family }]);
    else cb(null, target.address, target.family);
  }) as unknown as net.LookupFunction;
}

/** One request, pinned to the address that passed the allow list (no DNS rebinding between check and connect). */
export async function sendRequest(
  cfg: Config,
  url: string,
  method: string,
  headers: Record<string, string>,
  body: string,
): Promise<HookResponseInfo> {
  const u = new URL(url);
  const target = await allowedAddress(cfg, u.hostname.replace(/^\[|\]$/g, ''));
  const client = u.protocol === 'https:' ? https : http;
  const timeoutMs = cfg.WEBHOOK.DELIVER_TIMEOUT * 1000;
  return new Promise((resolve, reject) => {
    const req = client.request(
      u,
      {
        method,
        headers: { ...headers, 'Content-Length': String(Buffer.byteLength(body)) },
        lookup: pinnedLookup(target),
        rejectUnauthorized: !cfg.WEBHOOK.SKIP_TLS_VERIFY,
        timeout: timeoutMs,
      },
      (res) => {
        const chunks: Buffer[] = [];
        let size = 0;
        res.on('data', (c: Buffer) => {
          if (size < BODY_LIMIT) chunks.push(c.subarray(0, BODY_LIMIT - size));
          size += c.length;
        });
        res.on('end', () => {
          const h: Record<string, string> = {};
          for (const [k, v] of Object.entries(res.headers)) if (v !== undefined) h[k] = Array.isArray(v) ? v.join(', ') : v;
          resolve({ status: res.statusCode ?? 0, headers: h, body: Buffer.concat(chunks).toString('utf8') });
        });
        res.on('error', reject);
      },
    );
    const timer = setTimeout(() => req.destroy(new Error(`timeout after ${cfg.WEBHOOK.DELIVER_TIMEOUT}s`)), timeoutMs);
    req.on('timeout', () => req.destroy(new Error(`timeout after ${cfg.WEBHOOK.DELIVER_TIMEOUT}s`)));
    req.on('error', (e) => {
      clearTimeout(timer);
      reject(e);
    });
    req.on('close', () => clearTimeout(timer));
    req.end(body);
  });
}
