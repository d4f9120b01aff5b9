// Review requests of a pull request (Forgejo's routers/api/v1/repo/pull_review.go, services/pull/review.go,
// services/issue/assignee.go): a request is a Review row of type `request`, for a user or a team.
import { emitIssueEvent } from '../lib/issues/events.ts';
import type { Handler, SignedInCtx } from '../lib/http/handler.ts';
import { json, noContent, signedIn } from '../lib/http/handler.ts';
import type { PullReviewRequestOptions } from '../model/schemas/index.ts';
import { ReviewType, Review, type IReview } from '../model/pull.ts';
import { CommentType } from '../model/issue.ts';
import { EmailAddress, User, UserType, type IUser } from '../model/user.ts';
import { Collaboration } from '../model/repo.ts';
import { Team, TeamUnit, TeamUser, type ITeam } from '../model/org.ts';
import { reviewsToApi } from '../lib/pulls/api/review.ts';
import { addComment } from '../lib/issues/issues.ts';
import { conflict403, notFound, unprocessable } from '../lib/http/errors.ts';
import { hasTeamRepo } from '../lib/users/teams.ts';
import { Mode, Unit } from '../lib/auth/perm.ts';
import { isSiteAdmin, need, type RequestState } from '../lib/http/request.ts';
import {
  isOfficialReviewer,
  isOfficialReviewerTeam,
  permissionOf,
  pullOf,
  restoreLatestOfficial,
  viewerOf,
  type Pull,
} from '../lib/pulls/review.ts';

// -------------------------------------------------------------------------------------------------
// Review requests

/** Users by login, or by e-mail address when the value holds an `@` (404 for an unknown one). */
async function reviewersNamed(c: RequestState, names: string[]): Promise<IUser[]> {
  const users: IUser[] = [];
  for (const name of names) {
    let user: IUser | null;
    if (name.includes('@')) {
      const mail = await c.em.findOne(EmailAddress, { lowerEmail: name.toLowerCase(), isActivated: true });
      user = mail ? await c.em.findOne(User, { id: mail.uid }) : null;
    } else {
      user = await c.em.findOne(User, { lowerName: name.toLowerCase() });
    }
    if (!user) throw notFound(`User '${name}' not exist`);
    users.push(user);
  }
  return users;
}

/**
 * Forgejo's CanDoerChangeReviewRequests: the poster, the owner, any collaborator, and members of the
 * owning organization's teams that read this repository's pull requests (and, here, site admins).
 */
async function canChangeReviewRequests(c: RequestState, p: Pull, doer: IUser): Promise<boolean> {
  const { repo, owner } = need(c.repo, 'repo');
  if (doer.id === p.issue.posterId || doer.id === repo.ownerId || isSiteAdmin(c)) return true;
  if ((await c.em.count(Collaboration, { repoId: repo.id, userId: doer.id })) > 0) return true;
  if (owner.type !== UserType.organization) return false;
  const teamIds = (await c.em.find(TeamUser, { orgId: owner.id, uid: doer.id })).map((t) => t.teamId);
  const teams = teamIds.length ? await c.em.find(Team, { id: { $in: teamIds } }) : [];
  for (const team of teams) {
    if (!(await hasTeamRepo(c.em, team, repo))) continue;
    if (team.accessMode >= Mode.admin) return true;
    const unit = await c.em.findOne(TeamUnit, { teamId: team.id, type: Unit.pulls });
    if ((unit?.accessMode ?? 0) >= Mode.read) return true;
  }
  return false;
}

type LatestReview = IReview | null;

/** The reviewer's latest verdict or request (Forgejo's GetReviewByIssueIDAndUserID). */
const latestOf = (c: RequestState, p: Pull, reviewerId: number): Promise<LatestReview> =>
  c.em.findOne(
    Review,
    {
      issueId: p.issue.id,
      reviewerId,
      originalAuthorId: 0,
      type: { $in: [ReviewType.approve, ReviewType.reject, ReviewType.request] },
    },
    { orderBy: { id: 'desc' } },
  );

/** Forgejo's IsValidReviewRequest; every failure is a 422. */
async function checkUserRequest(c: SignedInCtx, p: Pull, reviewer: IUser, add: boolean, canChange: boolean): Promise<void> {
  const doer = c.auth.doer;
  const invalid = (reason: string) => unprocessable(`${reason} [user_id: ${doer.id}, repo_id: ${p.pull.baseRepoId}]`);
  if (reviewer.type === UserType.organization) throw invalid("Organization can't be added as reviewer");
  const latest = await latestOf(c, p, reviewer.id);
  const byPoster = p.issue.originalAuthorId === 0;
  if (add) {
    if (!(await permissionOf(c, reviewer)).canRead('pulls')) throw invalid("Reviewer can't read");
    if (reviewer.id === p.issue.posterId && byPoster) throw invalid("poster of pr can't be reviewer");
    if (canChange) return;
    if (doer.id === p.issue.posterId && byPoster && latest && latest.type !== ReviewType.request) return;
    throw invalid("Doer can't choose reviewer");
  }
  if (canChange) return;
  // A requested reviewer may decline the request.
  if (latest?.type === ReviewType.request && latest.reviewerId === doer.id) return;
  throw invalid("Doer can't remove reviewer");
}

/** Forgejo's AddReviewRequest: no-op when already requested; 403 re-requesting on a closed pull. */
async function addUserRequest(c: SignedInCtx, p: Pull, reviewer: IUser): Promise<IReview | null> {
  const latest = await latestOf(c, p, reviewer.id);
  if (latest?.type === ReviewType.request) return null;
  if (latest && (p.issue.isClosed || p.pull.hasMerged)) throw conflict403('cannot request a re-review on a closed or merged PR');
  const official = await isOfficialReviewer(c, p, reviewer);
  if (official) await c.em.nativeUpdate(Review, { issueId: p.issue.id, reviewerId: reviewer.id }, { official: false });
  const review = c.em.create(Review, { type: ReviewType.request, issueId: p.issue.id, reviewerId: reviewer.id, official });
  await c.em.flush();
  await addComment(c.em, p.issue, c.auth.doer.id, CommentType.reviewRequest, { assigneeId: reviewer.id, reviewId: review.id });
  await emitIssueEvent(c, p.issue, 'review_requested', { pull: p.pull, reviewer });
  return review;
}

async function removeUserRequest(c: SignedInCtx, p: Pull, reviewer: IUser): Promise<void> {
  const latest = await latestOf(c, p, reviewer.id);
  if (latest?.type !== ReviewType.request) return;
  await c.em.nativeDelete(Review, { id: latest.id });
  if (await isOfficialReviewer(c, p, reviewer)) await restoreLatestOfficial(c, p.issue.id, reviewer.id);
  await addComment(c.em, p.issue, c.auth.doer.id, CommentType.reviewRequest, { assigneeId: reviewer.id, removedAssignee: true });
  await emitIssueEvent(c, p.issue, 'review_request_removed', { pull: p.pull, reviewer });
}

/** Teams of the owning organization by name (404 for an unknown one), checked like Forgejo's IsValidTeamReviewRequest. */
async function teamsNamed(c: SignedInCtx, p: Pull, names: string[], add: boolean, canChange: boolean): Promise<ITeam[]> {
  const { repo, owner } = need(c.repo, 'repo');
  const doer = c.auth.doer;
  const invalid = (reason: string) => unprocessable(`${reason} [user_id: ${doer.id}, repo_id: ${p.pull.baseRepoId}]`);
  const teams: ITeam[] = [];
  for (const name of names) {
    const team = await c.em.findOne(Team, { orgId: owner.id, lowerName: name.toLowerCase() });
    if (!team) throw notFound(`Team '${name}' not exist`);
    if (add && repo.isPrivate && !(await hasTeamRepo(c.em, team, repo))) throw invalid("Reviewing team can't read repo");
    if (!canChange) throw invalid(add ? "Doer can't choose reviewer" : "Doer can't remove reviewer");
    teams.push(team);
  }
  return teams;
}

/** Forgejo's AddTeamReviewRequest: a team is requested once. */
async function addTeamRequest(c: SignedInCtx, p: Pull, team: ITeam): Promise<IReview | null> {
  if (await c.em.findOne(Review, { issueId: p.issue.id, reviewerTeamId: team.id })) return null;
  const doer = c.auth.doer;
  const official = (await isOfficialReviewerTeam(c, p, team)) || (await isOfficialReviewer(c, p, doer));
  const review = c.em.create(Review, { type: ReviewType.request, issueId: p.issue.id, reviewerTeamId: team.id, official });
  await c.em.flush();
  await addComment(c.em, p.issue, doer.id, CommentType.reviewRequest, { assigneeTeamId: team.id, reviewId: review.id });
  return review;
}

async function removeTeamRequest(c: SignedInCtx, p: Pull, team: ITeam): Promise<void> {
  const latest = await c.em.findOne(Review, { issueId: p.issue.id, reviewerTeamId: team.id }, { orderBy: { id: 'desc' } });
  if (!latest) return;
  await c.em.nativeDelete(Review, { id: latest.id });
  await addComment(c.em, p.issue, c.auth.doer.id, CommentType.reviewRequest, { assigneeTeamId: team.id, removedAssignee: true });
}

/**
 * Add or remove review requests. Every named user is checked before anything is written; teams are
 * only considered for repositories of an organization (Forgejo ignores them otherwise).
 */
async function changeRequests(c: SignedInCtx<PullReviewRequestOptions>, p: Pull, add: boolean): Promise<IReview[]> {
  const canChange = await canChangeReviewRequests(c, p, c.auth.doer);
  const reviewers = await reviewersNamed(c, c.body.reviewers ?? []);
  for (const reviewer of reviewers) await checkUserRequest(c, p, reviewer, add, canChange);
  const created: IReview[] = [];
  for (const reviewer of reviewers) {
    if (!add) await removeUserRequest(c, p, reviewer);
    else created.push(...[await addUserRequest(c, p, reviewer)].filter((r): r is IReview => r !== null));
  }
  const names = c.body.team_reviewers ?? [];
  if (need(c.repo, 'repo').owner.type !== UserType.organization || names.length === 0) return created;
  for (const team of await teamsNamed(c, p, names, add, canChange)) {
    if (!add) await removeTeamRequest(c, p, team);
    else created.push(...[await addTeamRequest(c, p, team)].filter((r): r is IReview => r !== null));
  }
  return created;
}

/** 201 with the requests this call created (already requested reviewers are left out). */
export const request = signedIn<PullReviewRequestOptions>(async (c) => {
  const p = pullOf(c);
  const created = await changeRequests(c, p, true);
  return json(201, await reviewsToApi(c.em, c.config, viewerOf(c), p, created));
});

export const cancel = signedIn<PullReviewRequestOptions>(async (c) => {
  await changeRequests(c, pullOf(c), false);
  return noContent();
});
/** This family's handlers; `routes.table.ts` names each `pullReviewRequests.<key>`. */
export const handlers = {
  request,
  cancel,
} satisfies Record<string, Handler<never, never>>;
