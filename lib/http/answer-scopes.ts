// What a kept answer depends on (lib/http/answer-cache.ts), besides `*`, which every answer depends on.
// The scopes are those the database's change marks name (migration ChangeMarks): `repo:<id>` for the
// rows of one repository that frequent writes change (its row, its issues and comments and what goes
// with them), `user:<id>` for a user's notifications. Every other table marks `*`.
//
// A row listed here declares the scopes of everything its answer reads that a narrow mark may change:
// - `repository`: the addressed repository's row and issues (and comments, counted on them), and its
//   parent's row when it is a fork (the answer shows the parent). Git data, permissions, users, labels
//   and milestones are marked `*`.
// - `account`: a user or organization (`GET /user`, `/users/{username}`, `/orgs/{org}`): users, stars,
//   follows and memberships, all marked `*`; the answer reads no row with a narrow mark.
// A kept row not listed depends on every change (lists over many repositories, other users).
import type { RequestState } from './request.ts';

export type AnswerDependence = 'repository' | 'account';

/** Kept rows, by handler key, whose answers depend on narrow scopes (test/lib/answer-scopes.test.ts checks they are kept rows). */
export const NARROW_ANSWERS: Readonly<Record<string, AnswerDependence>> = {
  'repos.get': 'repository',
  'branches.list': 'repository',
  'branches.get': 'repository',
  'tags.list': 'repository',
  'statuses.listBySha': 'repository',
  'statuses.combined': 'repository',
  'statuses.listByRef': 'repository',
  'commits.list': 'repository',
  'contents.contentsGet': 'repository',
  'issues.list': 'repository',
  'issues.get': 'repository',
  'labels.list': 'repository',
  'users.me': 'account',
  'users.get': 'account',
  'orgs.get': 'account',
};

/** The scopes an answer of this row, made with this state, depends on besides `*` (null: every change). */
export function answerScopes(handler: string | undefined, s: RequestState | undefined): string[] | null {
  if (handler === undefined || s === undefined) return null;
  switch (NARROW_ANSWERS[handler]) {
    case 'repository': {
      const repo = s.repo?.repo;
      if (!repo) return null;
      return repo.isFork && repo.forkId ? [`repo:${repo.id}`, `repo:${repo.forkId}`] : [`repo:${repo.id}`];
    }
    case 'account':
      return [];
    default:
      return null;
  }
}
