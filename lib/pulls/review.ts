// The pull request a review route works on, and the rules shared by reviews and review requests
// (Forgejo's routers/api/v1/repo/pull_review.go, services/pull/review.go, models/issues/review.go).
import type { IUser } from '../../model/user.ts';
import { ReviewType, Review, type IPullRequest, type IReview } from '../../model/pull.ts';
import { TeamUnit, TeamUser, type ITeam } from '../../model/org.ts';
import { reviewsToApi, type ReviewedPull } from './api/review.ts';
import { gitCtx } from '../repos/index.ts';
import { branchRule } from '../repos/index.ts';
import { Mode, Unit, userPermission } from '../auth/perm.ts';
import { isSiteAdmin, need, type RequestState } from '../http/request.ts';

export interface Pull extends ReviewedPull {
  pull: IPullRequest;
  repoPath: string;
}

/**
 * The pull request the chain loaded (PULL), with what the converters need. The review routes' chains
 * also load the review (REVIEW) and decide who may act on it (REVIEWER, REVIEWER_OR_ADMIN,
 * REVIEW_ADMIN, DISMISSABLE, POSTER_OR_WRITER(review-comment)).
 */
export function pullOf(c: RequestState): Pull {
  const { repo, owner } = need(c.repo, 'repo');
  return { ...need(c.pull, 'pull'), ownerName: owner.name, repoName: repo.name, repoPath: gitCtx(c).path };
}

export const reviewOf = (c: RequestState): IReview => need(c.review, 'review');

export const viewerOf = (c: RequestState) => ({ doer: c.auth.doer, siteAdmin: isSiteAdmin(c) });

export async function reviewJson(c: RequestState, p: Pull, review: IReview) {
  return (await reviewsToApi(c.em, c.config, viewerOf(c), p, [review]))[0];
}

/** The repository permission of another user, as Forgejo's GetUserRepoPermission (no token limits). */
export async function permissionOf(c: RequestState, user: IUser) {
  const { repo, owner, perm } = need(c.repo, 'repo');
  return userPermission(c.em, repo, owner, user, perm.enabled);
}

/**
 * Forgejo's IsOfficialReviewer: with an approvals allowlist on the base branch's rule, its users and
 * teams; otherwise whoever may write code.
 */
export async function isOfficialReviewer(c: RequestState, p: Pull, user: IUser): Promise<boolean> {
  const rule = await branchRule(c.em, p.pull.baseRepoId, p.pull.baseBranch);
  if (rule?.enableApprovalsWhitelist) {
    if (rule.approvalsWhitelistUserIds.includes(user.id)) return true;
    const teams = rule.approvalsWhitelistTeamIds;
    return teams.length > 0 && (await c.em.count(TeamUser, { uid: user.id, teamId: { $in: teams } })) > 0;
  }
  return (await permissionOf(c, user)).canWrite('code');
}

/** Forgejo's IsOfficialReviewerTeam: an allowlisted team, or (no allowlist) a team writing code. */
export async function isOfficialReviewerTeam(c: RequestState, p: Pull, team: ITeam): Promise<boolean> {
  const rule = await branchRule(c.em, p.pull.baseRepoId, p.pull.baseBranch);
  if (!rule) return false;
  if (rule.enableApprovalsWhitelist) return rule.approvalsWhitelistTeamIds.includes(team.id);
  if (team.accessMode >= Mode.admin) return true;
  const unit = await c.em.findOne(TeamUnit, { teamId: team.id, type: Unit.code });
  return (unit?.accessMode ?? 0) >= Mode.write;
}

/** Forgejo's restoreLatestOfficialReview: the reviewer's latest verdict or request counts again. */
export async function restoreLatestOfficial(c: RequestState, issueId: number, reviewerId: number): Promise<void> {
  const latest = await c.em.findOne(
    Review,
    {
      issueId,
      reviewerId,
      originalAuthorId: 0,
      type: { $in: [ReviewType.approve, ReviewType.reject, ReviewType.request] },
    },
    { orderBy: { id: 'desc' } },
  );
  if (latest) latest.official = true;
  await c.em.flush();
}
