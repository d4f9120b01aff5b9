// Parsing SSH public keys as Forgejo accepts them (models/asymkey/ssh_key_parse.go): an OpenSSH
// line (options and comment allowed), an RFC 4716 "SSH2" block, or a PEM public key. The stored
// form is `<algorithm> <base64>` plus the comment; the fingerprint is OpenSSH's `SHA256:...`.
import sshpk from 'sshpk';
import { unprocessable } from '../http/errors.ts';

export interface ParsedSshKey {
  content: string;
  fingerprint: string;
  /** ssh-keygen's family name: rsa, dsa, ecdsa, ed25519. */
  family: string;
  bits: number;
}

/** Forgejo's default [ssh.minimum_key_sizes]; DSA is disabled. */
const MIN_BITS: Record<string, number> = { ed25519: 256, ecdsa: 256, rsa: 3071 };
const SSH2_START = '---- BEGIN SSH2 PUBLIC KEY ----';
const KEY_LINE = /(?:^|\s)((?:ssh-|ecdsa-|sk-)[\w@.-]+)\s+([A-Za-z0-9+/]+={0,2})(?:\s+(.*))?$/;

class KeyContentError extends Error {}

function parseAny(text: string): { key: sshpk.Key; comment: string } {
  const content = text.trim();
  if (content.startsWith(SSH2_START)) {
    let body = '';
    let continuation = false;
    for (const line of content.replace(/\r\n?/g, '\n').split('\n')) {
      // Header lines contain ':' (and may continue with '\'); BEGIN/END lines contain '-'.
      if (continuation || /[:-]/.test(line)) continuation = line.endsWith('\\');
      else body += line.trim();
    }
    return { key: sshpk.parseKey(Buffer.from(body, 'base64'), 'rfc4253'), comment: '' };
  }
  if (content.includes('-----BEGIN')) {
    if (/-----BEGIN [A-Z ]*PRIVATE KEY-----/.test(content)) throw new KeyContentError('key is a private key');
    return { key: sshpk.parseKey(content, 'pem'), comment: '' };
  }
  const m = KEY_LINE.exec(content.replace(/\r?\n/g, ''));
  if (!m) throw new KeyContentError('invalid ssh public key: ssh: no key found');
  const [, algo, b64, comment = ''] = m;
  // The blob names its own algorithm; a line that claims another one is not a valid key.
  const blob = Buffer.from(b64, 'base64');
  const nameLength = blob.length >= 4 ? blob.readUInt32BE(0) : -1;
  if (nameLength < 0 || blob.length < 4 + nameLength) throw new KeyContentError('invalid ssh public key: ssh: short read');
  const blobAlgo = blob.subarray(4, 4 + nameLength).toString();
  if (blobAlgo !== algo) throw new KeyContentError(`invalid ssh public key: ssh: key type mismatch (${algo} vs ${blobAlgo})`);
  return { key: sshpk.parseKey(`${algo} ${b64}`, 'ssh'), comment: comment.trim() };
}

/** Parses and checks a key; bad input answers 422 in Forgejo's words. */
export function parseSshKey(text: string): ParsedSshKey {
  let parsed: { key: sshpk.Key; comment: string };
  try {
    parsed = parseAny(text);
  } catch (e) {
    if (e instanceof KeyContentError) throw unprocessable(`Invalid key content: ${e.message}`);
    if (e instanceof Error && ['KeyParseError', 'InvalidAlgorithmError', 'AssertionError', 'RangeError'].includes(e.name)) {
      if (/algorithm/i.test(e.message)) throw unprocessable('Unable to verify key content');
      throw unprocessable(`Invalid key content: invalid ssh public key: ${e.message.split('\n')[0]}`);
    }
    throw e;
  }
  const { key, comment } = parsed;
  const family = key.type;
  const bits = key.size;
  const min = MIN_BITS[family];
  if (min === undefined) throw unprocessable(`Invalid key content: key type is not allowed: ${family}`);
  if (bits < min) throw unprocessable(`Invalid key content: key length is not enough: got ${bits}, needs ${min}`);
  const [algo, b64] = key.toString('ssh').split(' ');
  return {
    content: comment ? `${algo} ${b64} ${comment}` : `${algo} ${b64}`,
    fingerprint: key.fingerprint('sha256').toString(),
    family,
    bits,
  };
}
