// api.User and api.Organization wire shapes (forgejo-facts 6.2, 6.3).
import { createHash } from 'node:crypto';
import type { Config } from '../../../config.ts';
import type { IUser } from '../../../model/user.ts';
import type { Plain } from '../../../model/raw.ts';
import { EPOCH, fmtTime } from '../../../model/time.ts';
import type { Organization, User, Wire } from '../../../model/schemas/index.ts';

/** Forgejo's User.MarshalJSON adds `username` (the login again) for backward compatibility; the swagger omits it. */
export type ApiUser = Wire<User> & { username: string };
export type ApiOrg = Wire<Organization>;

export interface Viewer {
  doer: IUser | null;
  siteAdmin: boolean;
}

/**
 * The generated avatar hash by its input: a pure function of an immutable string, so a process-wide
 * memo is safe (a list repeats its owners); cleared when it grows large.
 */
const generated = new Map<string, string>();
function generatedAvatar(key: string): string {
  let hash = generated.get(key);
  if (hash === undefined) {
    if (generated.size >= 10_000) generated.clear();
    hash = createHash('md5').update(key).digest('hex');
    generated.set(key, hash);
  }
  return hash;
}

export function avatarUrl(cfg: Config, u: Pick<IUser, 'id' | 'avatar' | 'lowerName'>): string {
  const hash = u.avatar || generatedAvatar(`cairn-avatar-${u.id}-${u.lowerName}`);
  return `${cfg.appUrl}avatars/${hash}`;
}

export function toApiUser(
  cfg: Config,
  u: Plain<IUser>,
  viewer: Viewer,
  counts: { followers?: number; following?: number; stars?: number } = {},
): ApiUser {
  const self = viewer.doer?.id === u.id;
  const privileged = self || viewer.siteAdmin;
  const noreply = `${u.lowerName}@${cfg.SERVICE.NO_REPLY_ADDRESS}`;
  const email = privileged ? u.email : !viewer.doer || u.keepEmailPrivate ? noreply : u.email;
  return {
    id: u.id,
    login: u.name,
    login_name: privileged ? u.loginName : '',
    source_id: privileged ? u.sourceId : 0,
    full_name: u.fullName,
    email,
    avatar_url: avatarUrl(cfg, u),
    html_url: `${cfg.appUrl}${encodeURIComponent(u.name)}`,
    language: privileged ? u.language : '',
    is_admin: privileged ? u.isAdmin : false,
    // Forgejo stores unix seconds: a user who never signed in has 0, which its owner and admins see as the epoch.
    last_login: privileged ? fmtTime(u.lastLoginAt, EPOCH) : fmtTime(null),
    created: fmtTime(u.createdAt),
    restricted: u.restricted,
    active: privileged ? u.isActive : false,
    prohibit_login: privileged ? u.prohibitLogin : false,
    location: u.location,
    pronouns: u.hidePronouns && !viewer.doer ? '' : u.pronouns,
    website: u.website,
    description: u.description,
    visibility: u.visibility,
    followers_count: counts.followers ?? u.numFollowers ?? 0,
    following_count: counts.following ?? u.numFollowing ?? 0,
    starred_repos_count: counts.stars ?? 0,
    username: u.name,
  };
}

export function toApiOrg(cfg: Config, o: IUser): ApiOrg {
  return {
    id: o.id,
    name: o.name,
    full_name: o.fullName,
    email: o.email,
    avatar_url: avatarUrl(cfg, o),
    description: o.description,
    website: o.website,
    location: o.location,
    visibility: o.visibility,
    repo_admin_change_team_access: o.repoAdminChangeTeamAccess,
    created: fmtTime(o.createdAt),
    username: o.name,
  };
}
