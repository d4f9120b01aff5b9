// Spec, token kinds, public-only tokens: after the scope check, per the route's category,
// 403 when the addressed repository / organization / user / package owner is not public.
import { MSG } from '../lib/http/errors.ts';
import { deny, step, type Need } from './types.ts';

const WHAT = {
  repository: 'repos',
  issue: 'issues',
  notification: 'notifications',
  organization: 'orgs',
  user: 'users',
  activitypub: 'activitypub',
  package: 'packages',
} as const;
type Cat = keyof typeof WHAT;
const NEEDS: Record<Cat, Need[]> = {
  repository: ['repo'],
  issue: ['repo'],
  notification: [],
  organization: [],
  user: ['user'],
  activitypub: ['user'],
  package: ['user'],
};

export function PUBLIC_ONLY(category: Cat) {
  if (!Object.hasOwn(WHAT, category)) throw new Error(`PUBLIC_ONLY: unknown category "${category}"`);
  return step(`PUBLIC_ONLY(${category})`, 'limit', NEEDS[category], [], (s) => {
    if (!s.auth.token?.publicOnly) return null;
    const no = deny(403, MSG.publicOnly(WHAT[category]));
    switch (category) {
      case 'repository':
      case 'issue':
      case 'notification': {
        const r = s.repo;
        return r && (r.repo.isPrivate || r.owner.visibility !== 'public') ? no : null;
      }
      case 'organization': {
        const org = s.org ?? (s.contextUser?.type === 1 ? s.contextUser : undefined);
        return org && org.visibility !== 'public' ? no : null;
      }
      case 'user':
      case 'activitypub':
        return s.contextUser && s.contextUser.type === 0 && s.contextUser.visibility !== 'public' ? no : null;
      case 'package':
        return s.contextUser && s.contextUser.visibility !== 'public' ? no : null;
    }
  });
}
