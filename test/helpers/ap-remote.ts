// A stand-in remote ActivityPub server for the federation tests: a local HTTP server with persons
// (and an instance actor) whose RSA keys the test holds, and a signer written independently of
// lib/federation/http-signature.ts, so a test does not check cairn's verifier against cairn's own signer.
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { createHash, createSign, generateKeyPairSync } from 'node:crypto';

export interface RemoteKeys {
  publicKeyPem: string;
  privateKeyPem: string;
}

export const newKeys = (): RemoteKeys => {
  const { publicKey, privateKey } = generateKeyPairSync('rsa', { modulusLength: 2048 });
  return {
    publicKeyPem: publicKey.export({ type: 'spki', format: 'pem' }).toString(),
    privateKeyPem: privateKey.export({ type: 'pkcs8', format: 'pem' }).toString(),
  };
};

export interface RemoteServer {
  base: string;
  /** Requests the server received (method, path, headers, body), to see what cairn fetched and sent. */
  seen: { method: string; path: string; headers: http.IncomingHttpHeaders; body: string }[];
  /** The status inbox POSTs get (default 202). */
  inboxStatus: number;
  /** Adds (or replaces) an actor at `/users/<name>` (or `/actor` for type Application). */
  actor(name: string, keys: RemoteKeys, type?: string): { id: string; keyId: string };
  close(): Promise<void>;
}

export async function startRemote(): Promise<RemoteServer> {
  const docs = new Map<string, unknown>();
  const seen: RemoteServer['seen'] = [];
  const server = http.createServer(async (req, res) => {
    const chunks: Buffer[] = [];
    for await (const chunk of req) chunks.push(chunk as Buffer);
    seen.push({ method: req.method ?? '', path: req.url ?? '', headers: req.headers, body: Buffer.concat(chunks).toString('utf8') });
    if (req.method === 'POST' && req.url?.endsWith('/inbox')) {
      res.writeHead(self.inboxStatus).end();
      return;
    }
    const doc = docs.get(req.url ?? '');
    if (!doc) {
      res.writeHead(404).end();
      return;
    }
    res.writeHead(200, { 'content-type': 'application/activity+json' }).end(JSON.stringify(doc));
  });
  await new Promise<void>((ok) => server.listen(0, '127.0.0.1', ok));
  const base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  const self: RemoteServer = {
    base,
    seen,
    inboxStatus: 202,
    actor(name, keys, type = 'Person') {
      const path = type === 'Application' ? '/actor' : `/users/${name}`;
      const id = `${base}${path}`;
      docs.set(path, {
        '@context': ['https://www.w3.org/ns/activitystreams', 'https://w3id.org/security/v1'],
        id,
        type,
        preferredUsername: name,
        name: `Remote ${name}`,
        inbox: `${id}/inbox`,
        outbox: `${id}/outbox`,
        publicKey: { id: `${id}#main-key`, owner: id, publicKeyPem: keys.publicKeyPem },
      });
      return { id, keyId: `${id}#main-key` };
    },
    close: () => new Promise<void>((ok) => server.close(() => ok())),
  };
  return self;
}

export interface SignOpts {
  keyId: string;
  privateKeyPem: string;
  method: string;
  /** Absolute URL of the request. */
  url: string;
  body?: string;
  /** Covered headers; default `(request-target) host date` plus `digest` with a body. */
  headers?: string[];
  date?: Date;
  algorithm?: string;
}

/** The headers of a draft-cavage signed request. */
export function signedHeaders(o: SignOpts): Record<string, string> {
  const u = new URL(o.url);
  const h: Record<string, string> = { host: u.host, date: (o.date ?? new Date()).toUTCString() };
  if (o.body !== undefined) h.digest = `SHA-256=${createHash('sha256').update(o.body).digest('base64')}`;
  const covered = o.headers ?? ['(request-target)', 'host', 'date', ...(o.body !== undefined ? ['digest'] : [])];
  const text = covered
    .map((name) =>
      name === '(request-target)' ? `(request-target): ${o.method.toLowerCase()} ${u.pathname}${u.search}` : `${name}: ${h[name]}`,
    )
    .join('\n');
  const signature = createSign('sha256').update(text).sign(o.privateKeyPem, 'base64');
  h.signature = `keyId="${o.keyId}",algorithm="${o.algorithm ?? 'rsa-sha256'}",headers="${covered.join(' ')}",signature="${signature}"`;
  return h;
}
