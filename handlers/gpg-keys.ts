// GPG keys of users (Forgejo's routers/api/v1/user/gpg_key.go, models/asymkey/gpg_key*.go): list,
// get, add (with an optional signature of the verification token), delete, the token itself, and
// verifying a stored key with a signature of that token.
import type { Handler } from '../lib/http/handler.ts';
import { json, noContent, signedIn } from '../lib/http/handler.ts';
import type { CreateGPGKeyOption, VerifyGPGKeyOption } from '../model/schemas/index.ts';
import { GpgKey, GpgKeyImport, type IGpgKey } from '../model/keys.ts';
import { EmailAddress, type IUser } from '../model/user.ts';
import { gpgKeysToApi } from '../lib/users/api/gpg-key.ts';
import {
  capabilities,
  expiryOf,
  identityEmails,
  keyIdOf,
  packetBase64,
  readArmoredKeys,
  signerOf,
  verificationToken,
  type PgpKey,
} from '../lib/users/gpg-keys.ts';
import { pageOf, pagingHeaders } from '../lib/http/paging.ts';
import { HttpError, notFound, unprocessable } from '../lib/http/errors.ts';
import { need, type RequestState } from '../lib/http/request.ts';
import { rowId } from '../lib/http/query-values.ts';

const idParam = (v: string | undefined) => rowId(v) ?? 0;

const gpgKeyJson = async (s: RequestState, k: IGpgKey) => (await gpgKeysToApi(s.em, [k]))[0]!;

async function listFor(c: RequestState, user: IUser) {
  const p = pageOf(c);
  const [keys, total] = await c.em.findAndCount(
    GpgKey,
    { ownerId: user.id, primaryKeyId: '' },
    { orderBy: { id: 'asc' }, limit: p.limit, offset: p.offset },
  );
  return json(200, await gpgKeysToApi(c.em, keys), pagingHeaders(c, p, total));
}

export const listMine = signedIn(async (c) => listFor(c, c.auth.doer));
export const listOfUser: Handler = async (c) => listFor(c, need(c.contextUser, 'user'));

export const get = signedIn(async (c) => {
  const key = await c.em.findOne(GpgKey, { id: idParam(c.params.id), ownerId: c.auth.doer.id });
  if (!key) throw notFound();
  return json(200, await gpgKeyJson(c, key));
});

/** Deletes the key, its subkeys and the stored armored import. */
export const remove = signedIn(async (c) => {
  const key = await c.em.findOne(GpgKey, { id: idParam(c.params.id), ownerId: c.auth.doer.id });
  if (!key) throw notFound();
  const primaryId = key.primaryKeyId || key.keyId;
  await c.em.nativeDelete(GpgKeyImport, { keyId: primaryId });
  await c.em.nativeDelete(GpgKey, { ownerId: key.ownerId, $or: [{ keyId: primaryId }, { primaryKeyId: primaryId }] });
  return noContent();
});

/** The current token and the previous minute's, both accepted. */
const tokensFor = (user: IUser) => [verificationToken(user, 1), verificationToken(user, 0)];

export const token = signedIn(async (c) => ({ status: 200, body: tokensFor(c.auth.doer)[0], type: 'text/plain;charset=utf-8' }));

const badSignature = (token: string) =>
  unprocessable(
    `The provided GPG key, signature and token do not match or token is out of date. Provide a valid signature for the token: ${token}`,
  );

/** Keys of one armored ring that share a primary key id are one key (Forgejo coalesces them). */
function distinct(keys: PgpKey[]): PgpKey[] {
  const byId = new Map<string, PgpKey>();
  for (const k of keys) if (!byId.has(keyIdOf(k))) byId.set(keyIdOf(k), k);
  return [...byId.values()];
}

async function storeKey(c: RequestState, owner: IUser, key: PgpKey, armored: string, verified: boolean, token: string): Promise<IGpgKey> {
  const keyId = keyIdOf(key);
  if ((await c.em.count(GpgKey, { keyId })) > 0) throw unprocessable('A key with the same id already exists');
  const activated = await c.em.find(EmailAddress, { uid: owner.id, isActivated: true });
  const idents = await identityEmails(key);
  const emails = activated.filter((e) => idents.includes(e.lowerEmail)).map((e) => ({ email: e.email, verified: e.isActivated }));
  if (!verified && emails.length === 0) {
    throw new HttpError(
      404,
      `None of the emails attached to the GPG key could be found. It may still be added if you provide a valid signature for the token: ${token}`,
      { errors: [] },
    );
  }
  const caps = capabilities(key.keyPacket);
  const expires = await expiryOf(key);
  const primary = c.em.create(GpgKey, {
    ownerId: owner.id,
    keyId,
    primaryKeyId: '',
    content: packetBase64(key.keyPacket, false),
    keyCreatedAt: key.keyPacket.created,
    expiresAt: expires,
    emails,
    verified,
    canSign: caps.canSign,
    canEncryptComms: caps.canEncrypt,
    canEncryptStorage: caps.canEncrypt,
    canCertify: caps.canCertify,
  });
  for (const sub of key.subkeys) {
    const sc = capabilities(sub.keyPacket);
    c.em.create(GpgKey, {
      ownerId: owner.id,
      keyId: keyIdOf(sub),
      primaryKeyId: keyId,
      content: packetBase64(sub.keyPacket, true),
      keyCreatedAt: sub.keyPacket.created,
      expiresAt: (await expiryOf(sub)) ?? expires,
      emails: [],
      verified: false,
      canSign: sc.canSign,
      canEncryptComms: sc.canEncrypt,
      canEncryptStorage: sc.canEncrypt,
      canCertify: sc.canCertify,
    });
  }
  c.em.create(GpgKeyImport, { keyId, content: armored });
  await c.em.flush();
  return primary;
}

/**
 * Forgejo's AddGPGKey: with a signature of the verification token, the signing key is added as
 * verified; without one, the key needs an identity matching one of the user's activated addresses.
 */
export const create = signedIn<CreateGPGKeyOption>(async (c) => {
  const doer = c.auth.doer;
  const [token, lastToken] = tokensFor(doer);
  let keys = distinct(await readArmoredKeys(c.body.armored_public_key));
  let verified = false;
  if (c.body.armored_signature) {
    const variants = (t: string) => [t, `${t}\n`, `${t}\r\n`, `"${t}" \r\n`];
    const signer = await signerOf(keys, c.body.armored_signature, [...variants(token), ...variants(lastToken)]);
    if (!signer) throw badSignature(token);
    keys = [signer];
    verified = true;
  }
  const stored = [];
  for (const key of keys) stored.push(await storeKey(c, doer, key, c.body.armored_public_key, verified, token));
  return json(201, await gpgKeyJson(c, stored[0]));
});

/** Forgejo's VerifyGPGKey: a signature of the token by the key (or a subkey) marks it verified. */
export const verify = signedIn<VerifyGPGKeyOption>(async (c) => {
  const doer = c.auth.doer;
  const [token, lastToken] = tokensFor(doer);
  const wanted = c.body.key_id.trim().toUpperCase().replace(/^0+/, '');
  if (!wanted || !/^[0-9A-F]{1,16}$/.test(wanted)) throw notFound();
  const key = await c.em.findOne(GpgKey, { ownerId: doer.id, keyId: wanted.padStart(16, '0') });
  if (!key) throw notFound();
  const primary = key.primaryKeyId ? await c.em.findOneOrFail(GpgKey, { ownerId: doer.id, keyId: key.primaryKeyId }) : key;
  const imported = await c.em.findOne(GpgKeyImport, { keyId: primary.keyId });
  if (!imported || !c.body.armored_signature) throw badSignature(token);
  const ring = (await readArmoredKeys(imported.content)).filter((k) => keyIdOf(k) === primary.keyId);
  const variants = (t: string) => [t, `${t}\n`, `${t}\n\n`];
  const signer = await signerOf(ring, c.body.armored_signature, [...variants(token), ...variants(lastToken)]);
  if (!signer) throw badSignature(token);
  primary.verified = true;
  await c.em.flush();
  return json(200, await gpgKeyJson(c, primary));
});

/** This family's handlers; `routes.table.ts` names each `gpgKeys.<key>`. */
export const handlers = {
  listOfUser,
  listMine,
  get,
  create,
  remove,
  token,
  verify,
} satisfies Record<string, Handler<never, never>>;
