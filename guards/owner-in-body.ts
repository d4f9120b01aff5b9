// Routes that create a repository for an owner named in the body (forks, template generation,
// migrations) decide here whether the caller may create there. Site-admin rights do not count for
// public-only and repo-specific tokens (spec, token kinds).
import { User, type IUser } from '../model/user.ts';
import { MSG } from '../lib/http/errors.ts';
import { deny, isSiteAdmin, step, type RequestState } from './types.ts';
import { canCreateOrgRepo } from '../lib/auth/membership.ts';
import { isOrgOwner } from '../lib/auth/membership.ts';

const field = (s: RequestState, key: string): string | undefined => {
  const v = (s.body as Record<string, unknown> | undefined)?.[key];
  return typeof v === 'string' && v !== '' ? v : undefined;
};
const byName = (s: RequestState, name: string) => s.em.findOne(User, { lowerName: name.toLowerCase() });

/**
 * Forgejo's CreateFork: `organization` names an existing organization (else 422) in which the
 * caller may create repositories (else 403 `user is not allowed to fork to organization <org>`).
 */
export const FORK_TARGET = step('FORK_TARGET', 'guard', ['repo', 'body'], [], async (s) => {
  const name = field(s, 'organization');
  if (!name) return null;
  const org = await byName(s, name);
  if (!org || org.type !== 1) return deny(422, `org does not exist [name: ${name}]`);
  if (isSiteAdmin(s) || (s.auth.doer && (await canCreateOrgRepo(s.em, org.id, s.auth.doer.id)))) return null;
  return deny(403, `user is not allowed to fork to organization ${org.name}`);
});

/**
 * Forgejo's Generate: `owner` must exist (404); another individual needs a site admin (403 `Only
 * admin can generate repository for other user.`); an organization needs the right to create
 * repositories there (403).
 */
export const GENERATE_OWNER = step('GENERATE_OWNER', 'guard', ['repo', 'body'], [], async (s) => {
  const name = field(s, 'owner') ?? '';
  const doer = s.auth.doer;
  if (doer && name.toLowerCase() === doer.lowerName) return null;
  const owner = await byName(s, name);
  if (!owner) return deny(404, `request owner \`${name}\` does not exist`, { errors: [] });
  if (isSiteAdmin(s)) return null;
  if (owner.type !== 1) return deny(403, 'Only admin can generate repository for other user.');
  return doer && (await canCreateOrgRepo(s.em, owner.id, doer.id)) ? null : deny(403, MSG.orgRepoCreate);
});

/**
 * Forgejo's Migrate: `repo_owner` (or the deprecated `uid`) must exist (422); another individual
 * needs a site admin (403 `Given user is not an organization.`); an organization needs an owner of
 * it (403 `Given user is not owner of organization.`).
 */
export const MIGRATE_OWNER = step('MIGRATE_OWNER', 'guard', ['body'], [], async (s) => {
  const doer = s.auth.doer;
  const name = field(s, 'repo_owner');
  const uid = (s.body as Record<string, unknown> | undefined)?.uid;
  let owner: IUser | null = doer;
  if (name) owner = await byName(s, name);
  else if (typeof uid === 'number' && uid !== 0) owner = await s.em.findOne(User, { id: uid });
  if (!owner) return deny(422, name ? `user does not exist [name: ${name}]` : `user does not exist [uid: ${String(uid)}]`);
  if (isSiteAdmin(s) || owner.id === doer?.id) return null;
  if (owner.type !== 1) return deny(403, 'Given user is not an organization.');
  return doer && (await isOrgOwner(s.em, owner.id, doer.id)) ? null : deny(403, 'Given user is not owner of organization.');
});
