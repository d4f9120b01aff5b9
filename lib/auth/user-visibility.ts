// Which users and organizations a caller may see in lists (Forgejo's BuildCanSeeUserCondition):
// anonymous callers see public ones; signed-in callers also limited ones, organizations they belong
// to and themselves (restricted users: not the limited ones); site admins see everyone.
import type { EntityManager, FilterQuery } from '@mikro-orm/core';
import { OrgUser } from '../../model/org.ts';
import type { IUser, Visibility } from '../../model/user.ts';

export async function canSeeUserFilter(em: EntityManager, doer: IUser | null, siteAdmin: boolean): Promise<FilterQuery<IUser>> {
  if (!doer) return { visibility: 'public' };
  if (siteAdmin) return {};
  const orgIds = (await em.find(OrgUser, { uid: doer.id }, { fields: ['orgId'] })).map((m) => m.orgId);
  const visible: Visibility[] = doer.restricted ? [] : ['public', 'limited'];
  return { $or: [{ visibility: { $in: visible } }, { id: { $in: [doer.id, ...orgIds] } }] };
}
