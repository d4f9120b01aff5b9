// Forgejo tag protection (models/git/protected_tag.go IsUserAllowedToControlTag), enforced on
// POST {R}/tags and DELETE {R}/tags/*: a tag matched by a protection rule may only be created or
// deleted by a user the rule lists (by name or team); else 422 `user not allowed to create protected
// tag` / `user not allowed to delete protected tag`.
import { deny, need, step } from './types.ts';
import { canControlTag } from '../lib/repos/branch-rules.ts';

export function TAG_CONTROL(action: 'create' | 'delete') {
  if (action !== 'create' && action !== 'delete') throw new Error(`TAG_CONTROL: unknown action "${String(action)}"`);
  return step(`TAG_CONTROL(${action})`, 'guard', action === 'create' ? ['repo', 'body'] : ['repo'], [], async (s) => {
    const { repo } = need(s.repo, 'repo');
    const name = action === 'create' ? (s.body as { tag_name?: unknown }).tag_name : s.params.path;
    if (typeof name !== 'string' || name === '') return null;
    if (await canControlTag(s.em, repo.id, name, s.auth.doer)) return null;
    return deny(422, `user not allowed to ${action} protected tag`);
  });
}
