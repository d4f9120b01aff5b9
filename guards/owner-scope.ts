// Spec, scope checks 5 and 6: the dynamic owner scope — `organization` when the owner concerned is an
// organization, otherwise `user` — required at write level, as for creating a repository.
// OWNER_SCOPE('repo'): the addressed repository's owner (deletion). OWNER_SCOPE('body'): the owner
// named in the body (template generation creates a repository there).
import { MSG } from '../lib/http/errors.ts';
import { hasScope } from '../lib/auth/scopes.ts';
import { User } from '../model/user.ts';
import { deny, need, step } from './types.ts';

export function OWNER_SCOPE(of: 'repo' | 'body') {
  if (of !== 'repo' && of !== 'body') throw new Error(`OWNER_SCOPE: unknown owner source "${of}"`);
  return step(`OWNER_SCOPE(${of})`, 'limit', of === 'repo' ? ['repo'] : ['repo', 'body'], [], async (s) => {
    const token = s.auth.token;
    if (!token) return null;
    let isOrg: boolean;
    if (of === 'repo') isOrg = need(s.repo, 'repo').owner.type === 1;
    else {
      const body = s.body as { owner?: unknown } | undefined;
      const name = typeof body?.owner === 'string' ? body.owner.toLowerCase() : '';
      const owner = name ? await s.em.findOne(User, { lowerName: name }) : s.auth.doer;
      isOrg = owner?.type === 1;
    }
    const category = isOrg ? 'organization' : 'user';
    if (!token.scopes) return deny(403, `checking scope failed: invalid access token scope: ${token.raw}`);
    return hasScope(token.scopes, category, 'write') ? null : deny(403, MSG.missingScope([`write:${category}`]));
  });
}
