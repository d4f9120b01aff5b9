// Who an SSH public key stands for (Forgejo's routers/private/serv.go): a user's key (`/user/keys`)
// stands for that user; otherwise the key may be a deploy key of one or more repositories, each
// reaching only its own repository. Keys are matched by their SHA256 fingerprint, as stored.
import type { EntityManager } from '@mikro-orm/core';
import sshpk from 'sshpk';
import { KeyType, PublicKey, type IPublicKey } from '../../model/keys.ts';
import { User, type IUser } from '../../model/user.ts';
import type { GitAccess, GitPrincipal } from './git-access.ts';

export type SshIdentity = { kind: 'user'; user: IUser; key: IPublicKey } | { kind: 'deploy'; keys: IPublicKey[] };

/** `SHA256:...` of a public key in SSH wire form (RFC 4253), or null when it does not parse. */
export function fingerprintOfBlob(blob: Buffer): { fingerprint: string; type: string } | null {
  try {
    const key = sshpk.parseKey(blob, 'rfc4253');
    const [type] = key.toString('ssh').split(' ');
    return { fingerprint: key.fingerprint('sha256').toString(), type };
  } catch (e) {
    if (e instanceof Error && ['KeyParseError', 'InvalidAlgorithmError', 'AssertionError', 'RangeError', 'Error'].includes(e.name))
      return null;
    throw e;
  }
}

/** Whether any key with this fingerprint is known (the cheap answer to a client's "would you take this key?"). */
export async function isKnownKey(em: EntityManager, fingerprint: string): Promise<boolean> {
  return (await em.count(PublicKey, { fingerprint })) > 0;
}

export async function identityForKey(em: EntityManager, fingerprint: string): Promise<SshIdentity | null> {
  const key = await em.findOne(PublicKey, { fingerprint, type: KeyType.user });
  if (key) {
    const user = await em.findOne(User, { id: key.ownerId, type: 0 });
    return user ? { kind: 'user', user, key } : null;
  }
  const keys = await em.find(PublicKey, { fingerprint, type: KeyType.deploy }, { orderBy: { id: 'asc' } });
  return keys.length ? { kind: 'deploy', keys } : null;
}

export function principalOf(identity: SshIdentity): GitPrincipal {
  return identity.kind === 'user'
    ? { doer: identity.user, token: null, task: null, deployKeys: null }
    : { doer: null, token: null, task: null, deployKeys: identity.keys };
}

/** The account states that stop a user's key (Forgejo: "Your account is disabled."). */
export const accountDisabled = (identity: SshIdentity) =>
  identity.kind === 'user' && (!identity.user.isActive || identity.user.prohibitLogin);

/**
 * Records that the key was used, in its `updated_at` (Forgejo's UpdatePublicKeyUpdated, shown as the
 * key's `updated_at`): one conditional statement, so concurrent sessions never conflict.
 */
export async function touchKey(em: EntityManager, identity: SshIdentity, access: GitAccess): Promise<void> {
  const id = identity.kind === 'user' ? identity.key.id : access.deployKey?.id;
  if (id) await em.nativeUpdate(PublicKey, { id }, { updatedAt: new Date() });
}
