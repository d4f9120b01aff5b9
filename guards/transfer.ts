// Forgejo's acceptOrRejectRepoTransfer: no pending transfer answers 404; a caller who may not accept
// it answers 403. The recipient user may; for an organization recipient, whoever may create
// repositories there (owners and members of teams with `can_create_org_repo`).
import { RepoTransfer } from '../model/transfer.ts';
import { User } from '../model/user.ts';
import { NOT_FOUND } from '../lib/http/errors.ts';
import { deny, need, step } from './types.ts';
import { canCreateOrgRepo } from '../lib/auth/membership.ts';

export const TRANSFER_RECIPIENT = step('TRANSFER_RECIPIENT', 'guard', ['repo'], [], async (s) => {
  const { repo } = need(s.repo, 'repo');
  const pending = await s.em.findOne(RepoTransfer, { repoId: repo.id });
  if (!pending) return deny(404, NOT_FOUND, { errors: [] });
  const doer = s.auth.doer;
  const recipient = await s.em.findOne(User, { id: pending.recipientId });
  const allowed =
    !!doer && !!recipient && (recipient.type === 1 ? await canCreateOrgRepo(s.em, recipient.id, doer.id) : recipient.id === doer.id);
  return allowed ? null : deny(403, 'user is not allowed to accept or reject this transfer');
});
