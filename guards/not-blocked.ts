// Blocks between users (Forgejo's ErrBlockedByUser): each guard names the rule it stands for.
import { isBlocked, isBlockedByAny, isBlockedEither } from '../lib/users/blocks.ts';
import { User } from '../model/user.ts';
import { deny, need, step } from './types.ts';

/** Starring, watching and forking: a user the repository's owner has blocked may not (403). */
export const NOT_BLOCKED_BY_OWNER = step('NOT_BLOCKED_BY_OWNER', 'guard', ['repo'], [], async (s) => {
  const { owner } = need(s.repo, 'repo');
  const doer = s.auth.doer;
  return doer && (await isBlocked(s.em, owner.id, doer.id)) ? deny(403, 'user is blocked by the repository owner') : null;
});

/** Forgejo's Transfer: a user the new owner (named in the body) has blocked may not transfer to it (403). */
export const NOT_BLOCKED_BY_NEW_OWNER = step('NOT_BLOCKED_BY_NEW_OWNER', 'guard', ['new-owner'], [], async (s) => {
  const doer = s.auth.doer;
  return doer && (await isBlocked(s.em, need(s.newOwner, 'new-owner').id, doer.id)) ? deny(403, 'user is blocked by the new owner') : null;
});

/** Forgejo's FollowUser: a block in either direction between the caller and `{username}` forbids it (403). */
export const NOT_BLOCKED_USER = step('NOT_BLOCKED_USER', 'guard', ['user'], [], async (s) => {
  const target = need(s.contextUser, 'user');
  const doer = s.auth.doer;
  if (!doer || doer.id === target.id) return null;
  return (await isBlockedEither(s.em, doer.id, target.id)) ? deny(403, 'user is blocked by the poster or repository owner') : null;
});

/**
 * Forgejo's AddOrUpdateCollaborator: a block in either direction between the repository owner and
 * `{collaborator}` is 403. An unknown collaborator passes here; the handler answers 422 for it.
 */
export const COLLABORATOR_NOT_BLOCKED = step('COLLABORATOR_NOT_BLOCKED', 'guard', ['repo'], [], async (s) => {
  const { owner } = need(s.repo, 'repo');
  const user = await s.em.findOne(User, { lowerName: (s.params.collaborator ?? '').toLowerCase(), type: 0 });
  return user && (await isBlockedEither(s.em, owner.id, user.id)) ? deny(403, 'user is blocked by the poster or repository owner') : null;
});

/**
 * Forgejo's CreateIssueComment and CreateReaction: a user blocked by the issue's poster, by the
 * repository's owner or (reacting to a comment) by the comment's poster may not (403).
 */
export const NOT_BLOCKED_BY_POSTER = step('NOT_BLOCKED_BY_POSTER', 'guard', ['repo', 'issue'], [], async (s) => {
  const doer = s.auth.doer;
  if (!doer) return null;
  const blockers = [need(s.issue, 'issue').posterId, need(s.repo, 'repo').owner.id, ...(s.comment ? [s.comment.comment.posterId] : [])];
  return (await isBlockedByAny(s.em, blockers, doer.id)) ? deny(403, 'user is blocked by the poster or repository owner') : null;
});
