// HTTP message signatures as the fediverse uses them (draft-cavage-http-signatures-12, the scheme
// Forgejo's httpsig verifier and Mastodon speak): a `Signature` header names a key (`keyId`), the
// headers it covers and an RSA-SHA256 signature over the "signing string" built from them.
import { createHash, createSign, createVerify } from 'node:crypto';

export interface SignatureParams {
  keyId: string;
  algorithm: string;
  /** Covered headers, lower case, in signing order; `(request-target)` is the method and path. */
  headers: string[];
  signature: Buffer;
}

export interface SignedRequest {
  method: string;
  /** Path and query as sent on the request line. */
  uri: string;
  headers: Record<string, string | string[] | undefined>;
}

/** Parses `keyId="…",algorithm="…",headers="…",signature="…"`; null when it is not that. */
export function parseSignature(header: string): SignatureParams | null {
  const fields = new Map<string, string>();
  const re = /\s*([a-zA-Z]+)="([^"]*)"\s*(,|$)/y;
  let m: RegExpExecArray | null;
  while (re.lastIndex < header.length && (m = re.exec(header))) fields.set(m[1], m[2]);
  if (re.lastIndex !== header.length && header.slice(re.lastIndex).trim() !== '') return null;
  const keyId = fields.get('keyId');
  const signature = fields.get('signature');
  if (!keyId || !signature || !/^[A-Za-z0-9+/]+={0,2}$/.test(signature)) return null;
  // The draft's default when `headers` is absent is `date` alone.
  const headers = (fields.get('headers') ?? 'date')
    .toLowerCase()
    .split(/\s+/)
    .filter((h) => h !== '');
  return { keyId, algorithm: (fields.get('algorithm') ?? 'hs2019').toLowerCase(), headers, signature: Buffer.from(signature, 'base64') };
}

const headerValue = (v: string | string[] | undefined) => (Array.isArray(v) ? v.join(', ') : v);

/** The string that was signed; null when a covered header is missing from the request. */
export function signingString(covered: readonly string[], req: SignedRequest): string | null {
  const lines: string[] = [];
  for (const name of covered) {
    if (name === '(request-target)') {
      lines.push(`(request-target): ${req.method.toLowerCase()} ${req.uri}`);
      continue;
    }
    const value = headerValue(req.headers[name]);
    if (value === undefined) return null;
    lines.push(`${name}: ${value.trim()}`);
  }
  return lines.join('\n');
}

/** `SHA-256=<base64>`, the Digest header value of a body. */
export const digestOf = (body: string | Buffer) => `SHA-256=${createHash('sha256').update(body).digest('base64')}`;

/** RSA-SHA256 (`rsa-sha256`, and `hs2019` with an RSA key, as Mastodon and Forgejo sign). */
export function verifySignature(publicKeyPem: string, data: string, signature: Buffer): boolean {
  return createVerify('RSA-SHA256').update(data).verify(publicKeyPem, signature);
}

/** Headers to add to a request so that it carries a signature by `keyId`. */
export function signRequest(
  keyId: string,
  privateKeyPem: string,
  req: { method: string; url: string; body?: string },
): Record<string, string> {
  const u = new URL(req.url);
  const headers: Record<string, string> = { host: u.host, date: new Date().toUTCString() };
  const covered = ['(request-target)', 'host', 'date'];
  if (req.body !== undefined) {
    headers.digest = digestOf(req.body);
    covered.push('digest');
  }
  const data = signingString(covered, { method: req.method, uri: `${u.pathname}${u.search}`, headers });
  const signature = createSign('RSA-SHA256')
    .update(data ?? '')
    .sign(privateKeyPem, 'base64');
  headers.signature = `keyId="${keyId}",algorithm="rsa-sha256",headers="${covered.join(' ')}",signature="${signature}"`;
  return headers;
}
