// api.PublicKey and api.DeployKey wire shapes (Forgejo's convert.ToPublicKey, ToDeployKey).
import type { Config } from '../../../config.ts';
import { KeyType, type IPublicKey } from '../../../model/keys.ts';
import type { IRepository } from '../../../model/repo.ts';
import type { IUser } from '../../../model/user.ts';
import { fmtTime } from '../../../model/time.ts';
import type { DeployKey, PublicKey, Wire } from '../../../model/schemas/index.ts';
import { toApiUser } from './user.ts';
import type { ApiRepo } from '../../repos/index.ts';

/** `read_only` is omitempty; `key_type` and `user` are added for the owner and site admins only. */
export type ApiPublicKey = Wire<PublicKey, 'read_only' | 'key_type' | 'user'>;
export type ApiDeployKey = Wire<DeployKey>;

/**
 * Forgejo's ToPublicKey; the key's owner and kind are added only for the owner and site admins
 * (appendPrivateInformation): `privileged` says so, `owner` is the key's owner when it is a user key.
 */
export function toApiPublicKey(cfg: Config, key: IPublicKey, privileged: boolean, owner: IUser | null): ApiPublicKey {
  const out: ApiPublicKey = {
    id: key.id,
    key: key.content,
    url: `${cfg.appUrl}api/v1/user/keys/${key.id}`,
    title: key.name,
    fingerprint: key.fingerprint,
    created_at: fmtTime(key.createdAt),
    updated_at: fmtTime(key.updatedAt),
    verified: key.verified,
  };
  // api.PublicKey tags read_only `omitempty`, while verified is always sent.
  if (key.mode === 1) out.read_only = true;
  if (privileged) {
    out.key_type = key.type === KeyType.user ? 'user' : key.type === KeyType.deploy ? 'deploy' : 'unknown';
    // Forgejo renders the owner as seen by the owner.
    if (key.type === KeyType.user && owner) out.user = toApiUser(cfg, owner, { doer: owner, siteAdmin: false });
  }
  return out;
}

/** A deploy key of `repo`, whose api.Repository (as the caller sees it) is `repository`. */
export function toApiDeployKey(
  cfg: Config,
  key: IPublicKey,
  repo: { owner: Pick<IUser, 'name'>; repo: Pick<IRepository, 'name'> },
  repository: ApiRepo,
): ApiDeployKey {
  return {
    id: key.id,
    key_id: key.id,
    key: key.content,
    url: `${cfg.appUrl}api/v1/repos/${repo.owner.name}/${repo.repo.name}/keys/${key.id}`,
    title: key.name,
    fingerprint: key.fingerprint,
    created_at: fmtTime(key.createdAt),
    read_only: key.mode === 1,
    repository,
  };
}
