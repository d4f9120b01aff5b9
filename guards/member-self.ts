// Forgejo (routers/api/v1/org/member.go, PublicizeMember / ConcealMember): a member publicizes or
// conceals only their own membership; another member's answers 403 "Cannot publicize another
// member" / "Cannot conceal another member", site admins included.
import { MSG } from '../lib/http/errors.ts';
import { deny, need, step } from './types.ts';

export const MEMBER_SELF = step('MEMBER_SELF', 'guard', ['user'], [], (s) => {
  if (s.auth.doer?.id === need(s.contextUser, 'user').id) return null;
  return deny(403, s.method === 'DELETE' ? MSG.concealOther : MSG.publicizeOther);
});
