// api.PullReview and api.PullReviewComment wire shapes (Forgejo's services/convert/pull_review.go).
// Reviews are converted in one batch per pull request: a fixed number of queries however many are listed.
import { readTogether } from '../../../model/reads.ts';
import type { EntityManager } from '@mikro-orm/core';
import type { Config } from '../../../config.ts';
import { CommentType, type IComment, type IIssue } from '../../../model/issue.ts';
import { REVIEW_STATES, ReviewType, type IReview } from '../../../model/pull.ts';
import { Team } from '../../../model/org.ts';
import { toApiUser, type Viewer } from '../../users/index.ts';
import { toApiTeam } from '../../users/index.ts';
import { issuePath, repoHtmlUrl, usersById } from '../../issues/index.ts';
import { fmtTime } from '../../../model/time.ts';
import { teamUnitsOf } from '../../users/index.ts';
import { pseudoUser } from '../../auth/pseudo-users.ts';
import type { PullReview, PullReviewComment, Wire } from '../../../model/schemas/index.ts';
import { executeSql, sql } from '../../../model/sql.ts';

export type ApiReview = Wire<PullReview>;
export type ApiReviewComment = Wire<PullReviewComment>;

/** The pull request the reviews belong to, with the names its URLs are built from. */
export interface ReviewedPull {
  issue: IIssue;
  ownerName: string;
  repoName: string;
}

export const pullHtmlUrl = (cfg: Config, p: ReviewedPull) => `${repoHtmlUrl(cfg, p.ownerName, p.repoName)}${issuePath(p.issue)}`;

/** `state` of a review; an out-of-range type reads as Forgejo's ReviewStateUnknown (""). */
export const reviewState = (type: number): string => REVIEW_STATES[type] ?? '';

interface CommentCount {
  review_id: number;
  type: number;
  n: string;
  first: number;
}

export async function reviewsToApi(
  em: EntityManager,
  cfg: Config,
  viewer: Viewer,
  pull: ReviewedPull,
  reviews: IReview[],
): Promise<ApiReview[]> {
  if (reviews.length === 0) return [];
  const ids = reviews.map((r) => r.id);
  const teamIds = [...new Set(reviews.map((r) => r.reviewerTeamId).filter((id) => id > 0))];
  const [commentRows, users, teams] = await readTogether(em, [
    // Per review: how many code comments, and the first timeline entry (the review's link).
    () =>
      executeSql<CommentCount>(
        em,
        sql`select review_id, type, count(*) as n, min(id) as first from comment
       where type in (${CommentType.code}, ${CommentType.review}) and review_id in (${sql.list(ids)}) group by review_id, type`,
      ),
    () =>
      usersById(
        em,
        reviews.map((r) => r.reviewerId),
      ),
    () => (teamIds.length ? em.find(Team, { id: { $in: teamIds } }) : []),
  ]);
  const rowOf = (reviewId: number, type: number) =>
    commentRows.find((x: CommentCount) => Number(x.review_id) === reviewId && Number(x.type) === type);
  const units = await teamUnitsOf(em, teams);
  const teamById = new Map(teams.map((t) => [t.id, t]));
  const html = pullHtmlUrl(cfg, pull);
  return reviews.map((r) => {
    // Pending reviews and review requests have no timeline entry, hence no link.
    const timeline = rowOf(r.id, CommentType.review);
    const team = r.reviewerTeamId ? teamById.get(r.reviewerTeamId) : undefined;
    return {
      id: r.id,
      user: r.reviewerId ? toApiUser(cfg, users.get(r.reviewerId) ?? pseudoUser(-1), viewer) : null,
      team: team ? toApiTeam(cfg, team, units) : null,
      state: reviewState(r.type),
      body: r.content,
      commit_id: r.commitId,
      stale: r.stale,
      official: r.official,
      dismissed: r.dismissed,
      comments_count: Number(rowOf(r.id, CommentType.code)?.n ?? 0),
      submitted_at: fmtTime(r.createdAt),
      updated_at: fmtTime(r.updatedAt),
      html_url: timeline ? `${html}#issuecomment-${Number(timeline.first)}` : '',
      pull_request_url: html,
    };
  });
}

/** The stored hunk carries `diff --git`/`---`/`+++` headers; the wire shows it from the first `@@` on. */
export function diffHunkOf(patch: string): string {
  const parts = patch.split('\n@@');
  return parts.length === 2 ? `@@${parts[1]}` : '';
}

export async function reviewCommentsToApi(
  em: EntityManager,
  cfg: Config,
  viewer: Viewer,
  pull: ReviewedPull,
  review: IReview,
  comments: IComment[],
): Promise<ApiReviewComment[]> {
  if (comments.length === 0) return [];
  const users = await usersById(
    em,
    comments.flatMap((c) => [c.posterId, c.resolveDoerId]),
  );
  const html = pullHtmlUrl(cfg, pull);
  // Comments of a pending review live on the files tab (Forgejo's Comment.HTMLURL).
  const anchor = review.type === ReviewType.pending ? `${html}/files` : html;
  return comments.map((c) => ({
    id: c.id,
    body: c.content,
    user: toApiUser(cfg, users.get(c.posterId) ?? pseudoUser(-1), viewer),
    resolver: c.resolveDoerId ? toApiUser(cfg, users.get(c.resolveDoerId) ?? pseudoUser(-1), viewer) : null,
    pull_request_review_id: review.id,
    created_at: fmtTime(c.createdAt),
    updated_at: fmtTime(c.updatedAt),
    path: c.treePath,
    commit_id: c.commitSha,
    original_commit_id: c.oldRef,
    diff_hunk: diffHunkOf(c.patch),
    position: c.line > 0 ? c.line : 0,
    original_position: c.line < 0 ? -c.line : 0,
    extra_lines_count: 0,
    html_url: `${anchor}#issuecomment-${c.id}`,
    pull_request_url: html,
  }));
}
