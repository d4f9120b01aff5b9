// PULL_UPDATER (Forgejo's UpdatePullRequest / IsUserAllowedToUpdate): the caller must be allowed to push
// to (or merge into) the head branch; rebasing also needs an unprotected head branch. Anyone else 403.
// A merged or closed pull, or one whose head repository is gone, passes: the handler answers 422 first.
// The repository, pull rows and branch rules are real; the caller's permission is built directly.
import { test } from 'uvu';
import { PULL_UPDATER } from '../../guards/pull-updater.ts';
import { Mode, type AccessMode } from '../../lib/auth/perm.ts';
import { createIssue } from '../../lib/issues/issues.ts';
import { PullRequest, type IPullRequest } from '../../model/pull.ts';
import { ProtectedBranch } from '../../model/branch-protection.ts';
import type { IIssue } from '../../model/issue.ts';
import type { IRepository } from '../../model/repo.ts';
import type { IUser } from '../../model/user.ts';
import { fakeUser, permAll, table, type Given } from './state.ts';
import { mkRepo, mkUser, openGuardDb, type GuardDb } from './db.ts';

let db: GuardDb;
let owner: IUser;
let repo: IRepository;
const doer = fakeUser();

interface Made {
  pull: IPullRequest;
  issue: IIssue;
}
async function mkPull(head: string, over: { merged?: boolean; closed?: boolean; headGone?: boolean } = {}): Promise<Made> {
  const issue = await createIssue(db.em(), { repo, posterId: owner.id, title: head, isPull: true });
  const em = db.em();
  if (over.closed) await em.nativeUpdate('Issue', { id: issue.id }, { isClosed: true });
  const pull = em.create(PullRequest, {
    issueId: issue.id,
    index: issue.index,
    baseRepoId: repo.id,
    headRepoId: over.headGone ? 0 : repo.id,
    baseBranch: 'main',
    headBranch: head,
    hasMerged: over.merged ?? false,
  });
  await em.flush();
  return { pull, issue: { ...issue, isClosed: over.closed ?? false } };
}

let open: Made;
let merged: Made;
let closed: Made;
let orphan: Made;
let guarded: Made;
test.before(async () => {
  db = await openGuardDb();
  owner = await mkUser(db);
  repo = await mkRepo(db, owner, owner);
  open = await mkPull('feature');
  merged = await mkPull('done', { merged: true });
  closed = await mkPull('shut', { closed: true });
  orphan = await mkPull('gone', { headGone: true });
  guarded = await mkPull('guarded');
  const em = db.em();
  em.create(ProtectedBranch, { repoId: repo.id, ruleName: 'guarded' });
  em.create(ProtectedBranch, { repoId: repo.id, ruleName: 'pushable', canPush: true });
  await em.flush();
});
test.after(async () => {
  await db.close();
});

let pushable: Made;
test.before(async () => {
  pushable = await mkPull('pushable');
});

function on(made: () => Made, mode: AccessMode, opts: { who?: Given['doer']; query?: string } = {}): () => Given {
  return () => ({
    em: db.em(),
    doer: opts.who === undefined ? doer : opts.who,
    repo: { repo, owner, perm: permAll(mode) },
    pull: made(),
    query: opts.query,
  });
}

const denied = { status: 403, message: 'user is not allowed to update this pull request' };
table(PULL_UPDATER, [
  { name: 'a code writer', given: on(() => open, Mode.write), want: null },
  { name: 'a reader', given: on(() => open, Mode.read), want: denied },
  { name: 'anonymous', given: on(() => open, Mode.read, { who: null }), want: denied },
  { name: 'a writer, head branch protected without push', given: on(() => guarded, Mode.write), want: denied },
  { name: 'a writer, head branch protected with push', given: on(() => pushable, Mode.write), want: null },
  { name: 'a writer rebasing a protected head branch', given: on(() => pushable, Mode.write, { query: 'style=rebase' }), want: denied },
  { name: 'a writer rebasing an unprotected head branch', given: on(() => open, Mode.write, { query: 'style=rebase' }), want: null },
  { name: 'a reader on a merged pull (422 in the handler)', given: on(() => merged, Mode.read), want: null },
  { name: 'a reader on a closed pull (422 in the handler)', given: on(() => closed, Mode.read), want: null },
  { name: 'a reader, head repository gone (422 in the handler)', given: on(() => orphan, Mode.read), want: null },
]);

test.run();
