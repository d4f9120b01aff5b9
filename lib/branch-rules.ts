// Who may write to a branch. Branch protection rules are not stored yet, so code-write access decides.
import type { EntityManager } from '@mikro-orm/core';
import type { IUser } from '../model/user.ts';
import type { LoadedRepo } from '../guards/types.ts';

export async function canPushBranch(_em: EntityManager, loaded: LoadedRepo, doer: IUser | null, _branch: string): Promise<boolean> {
  return !!doer && loaded.perm.canWrite('code');
}
