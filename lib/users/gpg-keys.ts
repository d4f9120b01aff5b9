// GPG keys as Forgejo handles them (models/asymkey/gpg_key*.go): parsing an armored key ring,
// the per-user verification token that proves possession, and detached-signature checks.
import { createHash } from 'node:crypto';
import type * as openpgp from 'openpgp';
import type { IUser } from '../../model/user.ts';
import { unprocessable } from '../http/errors.ts';

export type PgpKey = openpgp.Key;
type AnyKeyPacket = PgpKey['keyPacket'] | openpgp.Subkey['keyPacket'];

const SIGN_ALGOS = new Set(['rsaEncryptSign', 'rsaSign', 'dsa', 'ecdsa', 'eddsaLegacy', 'ed25519', 'ed448']);
const ENCRYPT_ALGOS = new Set(['rsaEncryptSign', 'rsaEncrypt', 'elgamal', 'ecdh', 'x25519', 'x448']);

// openpgp is loaded on first use: a process that never meets a GPG key does not hold its ~20 MB.
let loading: Promise<typeof openpgp> | undefined;
const pgp = () => (loading ??= import('openpgp'));

export const keyIdOf = (k: { getKeyID(): openpgp.KeyID }) => k.getKeyID().toHex().toUpperCase();

/** Reads an armored public key ring; anything else answers 422 like Forgejo's ErrGPGKeyParsing. */
export async function readArmoredKeys(armored: string): Promise<PgpKey[]> {
  let keys: PgpKey[];
  try {
    keys = await (await pgp()).readKeys({ armoredKeys: armored });
  } catch (e) {
    // openpgp reports every malformed input with a plain Error; all of them mean "not a key ring".
    if (e instanceof Error) throw unprocessable(`failed to parse gpg key ${e.message}`);
    throw e;
  }
  if (keys.length === 0) throw unprocessable('failed to parse gpg key no armored data found');
  if (keys.some((k) => k.isPrivate()))
    throw unprocessable('failed to parse gpg key a private key was given, only public keys are accepted');
  return keys;
}

/** What Forgejo stores per key or subkey. */
export function capabilities(packet: AnyKeyPacket) {
  const algo: string = packet.getAlgorithmInfo().algorithm;
  return { canSign: SIGN_ALGOS.has(algo), canEncrypt: ENCRYPT_ALGOS.has(algo), canCertify: SIGN_ALGOS.has(algo) };
}

/** Base64 of the key packet with its (new-format) packet header, as Go's Serialize writes it. */
export function packetBase64(packet: AnyKeyPacket, subkey: boolean): string {
  const body = Buffer.from(packet.write());
  const tag = subkey ? 14 : 6;
  let len: Buffer;
  if (body.length < 192) len = Buffer.from([body.length]);
  else if (body.length < 8384) len = Buffer.from([((body.length - 192) >> 8) + 192, (body.length - 192) & 0xff]);
  else {
    len = Buffer.alloc(5);
    len[0] = 255;
    len.writeUInt32BE(body.length, 1);
  }
  return Buffer.concat([Buffer.from([0xc0 | tag]), len, body]).toString('base64');
}

export async function expiryOf(k: PgpKey | openpgp.Subkey): Promise<Date | null> {
  const t = await k.getExpirationTime();
  return t instanceof Date ? t : null;
}

/** E-mail addresses of the key's user IDs with a valid, unrevoked self-certification. */
export async function identityEmails(key: PgpKey): Promise<string[]> {
  const out: string[] = [];
  for (const u of key.users) {
    if (!u.userID?.email) continue;
    if (
      await u.verify().then(
        () => true,
        () => false,
      )
    )
      out.push(u.userID.email.trim().toLowerCase());
  }
  return out;
}

/**
 * The token a user signs to prove they own a key (Forgejo's VerificationToken): it changes every
 * minute, and the previous minute's token is still accepted.
 */
export function verificationToken(user: IUser, minutesAhead: number, now = new Date()): string {
  const minute = new Date(Math.floor(now.getTime() / 60000) * 60000 + minutesAhead * 60000);
  return createHash('sha256')
    .update(`${rfc1123z(minute)}:${rfc1123z(user.createdAt)}:${user.name}:${user.email}:${user.id}`)
    .digest('hex');
}

function rfc1123z(d: Date): string {
  const days = ['Sun', 'Mon', 'Tue', 'Wed', 'Thu', 'Fri', 'Sat'];
  const months = ['Jan', 'Feb', 'Mar', 'Apr', 'May', 'Jun', 'Jul', 'Aug', 'Sep', 'Oct', 'Nov', 'Dec'];
  const p2 = (n: number) => String(n).padStart(2, '0');
  return `${days[d.getUTCDay()]}, ${p2(d.getUTCDate())} ${months[d.getUTCMonth()]} ${d.getUTCFullYear()} ${p2(d.getUTCHours())}:${p2(d.getUTCMinutes())}:${p2(d.getUTCSeconds())} +0000`;
}

/**
 * Checks an armored detached signature over one of the candidate texts (Forgejo tries the token with
 * several line endings) against the keys; returns the key that made it, or null.
 */
export async function signerOf(keys: PgpKey[], armoredSignature: string, texts: string[]): Promise<PgpKey | null> {
  const lib = await pgp();
  let signature: openpgp.Signature;
  try {
    signature = await lib.readSignature({ armoredSignature });
  } catch (e) {
    // A signature that does not parse proves nothing, like one that does not verify.
    if (e instanceof Error) return null;
    throw e;
  }
  for (const text of texts) {
    for (const message of [await lib.createMessage({ binary: Buffer.from(text) }), await lib.createMessage({ text })]) {
      const result = await lib.verify({ message, signature, verificationKeys: keys, expectSigned: false });
      for (const sig of result.signatures) {
        const ok = await sig.verified.then(
          () => true,
          () => false,
        );
        if (!ok) continue;
        const id = sig.keyID.toHex().toUpperCase();
        const signer = keys.find((k) => keyIdOf(k) === id || k.subkeys.some((s) => keyIdOf(s) === id));
        if (signer) return signer;
      }
    }
  }
  return null;
}
