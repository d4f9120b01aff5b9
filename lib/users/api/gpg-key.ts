// api.GPGKey wire shape (Forgejo's convert.ToGPGKey): subkeys are one level deep, with `emails` and
// `subkeys` null. The subkeys of a list of keys are read in one query.
import type { EntityManager } from '@mikro-orm/core';
import { GpgKey, type IGpgKey } from '../../../model/keys.ts';
import { fmtTime } from '../../../model/time.ts';
import type { GPGKey, Wire } from '../../../model/schemas/index.ts';

export type ApiGpgKey = Wire<GPGKey>;

function keyFields(k: IGpgKey) {
  return {
    id: k.id,
    primary_key_id: k.primaryKeyId,
    key_id: k.keyId,
    public_key: k.content,
    can_sign: k.canSign,
    can_encrypt_comms: k.canEncryptComms,
    can_encrypt_storage: k.canEncryptStorage,
    can_certify: k.canCertify,
    verified: k.verified,
    created_at: fmtTime(k.keyCreatedAt),
    expires_at: fmtTime(k.expiresAt),
  };
}

/** A primary key with its subkeys (the keys of the same owner whose primary key id is its key id). */
export function toApiGpgKey(k: IGpgKey, subkeys: IGpgKey[]): ApiGpgKey {
  return {
    ...keyFields(k),
    emails: k.emails.map((e) => ({ email: e.email, verified: e.verified })),
    subkeys: subkeys.map((sk) => ({ ...keyFields(sk), emails: null, subkeys: null })),
  };
}

export async function gpgKeysToApi(em: EntityManager, keys: IGpgKey[]): Promise<ApiGpgKey[]> {
  if (keys.length === 0) return [];
  const subkeys = await em.find(
    GpgKey,
    { $or: keys.map((k) => ({ primaryKeyId: k.keyId, ownerId: k.ownerId })) },
    { orderBy: { id: 'asc' } },
  );
  return keys.map((k) =>
    toApiGpgKey(
      k,
      subkeys.filter((sk) => sk.primaryKeyId === k.keyId && sk.ownerId === k.ownerId),
    ),
  );
}
