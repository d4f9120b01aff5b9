// push / create / delete events from moved refs, as Forgejo's services/repository/push.go sends them:
// a new branch is `create` then `push` (its last 10 commits), an updated branch is `push` (the commits
// since the old head), a deleted branch is `delete` only; a new tag is `push` (no commits, the tagged
// commit as head) then `create`, a deleted tag is `push` (to the zero oid) then `delete`. Other refs
// (notes, pull heads) send nothing. The commits are read from git only if a subscriber asks.
import type { EntityManager } from '@mikro-orm/core';
import { getCommit, log, runGit, diffFiles, type Commit } from '../../git/index.ts';
import type { IRepository } from '../../model/repo.ts';
import type { IUser } from '../../model/user.ts';
import { emitEvents, type EventCtx, type PushCommit, type PushCommits, type RepoEvent } from '../activity/index.ts';

export interface RefUpdate {
  ref: string;
  before: string;
  after: string;
}

/** Forgejo's [ui] FEED_MAX_COMMIT_NUM: the commits a push payload lists. */
const MAX_PUSH_COMMITS = 5;
/** A new branch lists this many of its latest commits (CommitsBeforeLimit(10)). */
const NEW_BRANCH_COMMITS = 10;

const isZero = (oid: string) => /^0+$/.test(oid);

/** Branch and tag heads of a repository, to diff against after a write (`emitRefChanges`). */
export async function refSnapshot(repoPath: string): Promise<Map<string, string>> {
  const { stdout } = await runGit(repoPath, ['for-each-ref', '--format=%(refname) %(objectname)', 'refs/heads/', 'refs/tags/']);
  const refs = new Map<string, string>();
  for (const line of stdout.toString('utf8').split('\n')) {
    const [ref, oid] = line.split(' ');
    if (ref && oid) refs.set(ref, oid);
  }
  return refs;
}

/** Emits the events of every branch or tag that differs from `before` (a `refSnapshot` taken before the write). */
export async function emitRefChanges(
  em: EntityManager,
  ctx: EventCtx,
  repo: IRepository,
  sender: IUser,
  repoPath: string,
  before: Map<string, string>,
): Promise<void> {
  const after = await refSnapshot(repoPath);
  const zero = '0'.repeat([...before.values(), ...after.values()][0]?.length ?? 40);
  const updates: RefUpdate[] = [];
  for (const [ref, oid] of after) if (before.get(ref) !== oid) updates.push({ ref, before: before.get(ref) ?? zero, after: oid });
  for (const [ref, oid] of before) if (!after.has(ref)) updates.push({ ref, before: oid, after: zero });
  await emitRefUpdates(em, ctx, repo, sender, repoPath, updates);
}

/** Emits the events of ref updates whose old and new values are known (git over HTTP). */
export async function emitRefUpdates(
  em: EntityManager,
  ctx: EventCtx,
  repo: IRepository,
  sender: IUser,
  repoPath: string,
  updates: RefUpdate[],
): Promise<void> {
  const events: RepoEvent[] = [];
  for (const u of updates) events.push(...(await eventsOf(repo, sender, repoPath, u)));
  await emitEvents(em, ctx, events);
}

async function eventsOf(repo: IRepository, sender: IUser, repoPath: string, u: RefUpdate): Promise<RepoEvent[]> {
  const base = { repo, sender };
  const created = isZero(u.before);
  const deleted = isZero(u.after);
  const push = (commits: () => Promise<PushCommits>, forced = false): RepoEvent => ({
    ...base,
    name: 'push',
    ref: u.ref,
    before: u.before,
    after: u.after,
    forced,
    commits: memo(commits),
  });
  if (u.ref.startsWith('refs/heads/')) {
    const ref = u.ref.slice('refs/heads/'.length);
    if (deleted) return [{ ...base, name: 'delete', refType: 'branch', ref }];
    const commits = () => branchCommits(repoPath, created ? null : u.before, u.after);
    if (created) return [{ ...base, name: 'create', refType: 'branch', ref, sha: u.after }, push(commits)];
    return [push(commits, !(await isAncestor(repoPath, u.before, u.after)))];
  }
  if (u.ref.startsWith('refs/tags/')) {
    const ref = u.ref.slice('refs/tags/'.length);
    if (deleted) return [push(async () => ({ commits: [], total: 0, head: null })), { ...base, name: 'delete', refType: 'tag', ref }];
    const head = async () => ({ commits: [], total: 0, head: await pushCommit(repoPath, await getCommit(repoPath, u.after)) });
    return [push(head), { ...base, name: 'create', refType: 'tag', ref, sha: u.after }];
  }
  return [];
}

function memo<T>(fn: () => Promise<T>): () => Promise<T> {
  let p: Promise<T> | null = null;
  return () => (p ??= fn());
}

async function isAncestor(repoPath: string, a: string, b: string): Promise<boolean> {
  const r = await runGit(repoPath, ['merge-base', '--is-ancestor', a, b], { okCodes: [0, 1, 128] });
  return r.code === 0;
}

async function branchCommits(repoPath: string, before: string | null, after: string): Promise<PushCommits> {
  const list =
    before === null ? await log(repoPath, { rev: after, limit: NEW_BRANCH_COMMITS }) : await log(repoPath, { rev: `${before}..${after}` });
  const commits = await Promise.all(list.slice(0, MAX_PUSH_COMMITS).map((c) => pushCommit(repoPath, c)));
  const head = list[0] ? (commits[0] ?? null) : await pushCommit(repoPath, await getCommit(repoPath, after));
  return { commits: commits.filter((c): c is PushCommit => c !== null), total: list.length, head };
}

async function pushCommit(repoPath: string, c: Commit | null): Promise<PushCommit | null> {
  if (!c) return null;
  const files = await diffFiles(repoPath, c.parents[0] ?? null, c.sha);
  const of = (s: string) => files.filter((f) => f.status === s).map((f) => f.filename);
  return {
    sha: c.sha,
    message: c.message,
    author: { name: c.author.name, email: c.author.email },
    committer: { name: c.committer.name, email: c.committer.email },
    timestamp: c.author.date,
    added: [...of('added'), ...of('copied')],
    removed: of('removed'),
    modified: [...of('modified'), ...of('renamed')],
    signature: c.signature,
    signedPayload: c.signedPayload,
  };
}

/** Of the updates a push asked for, those git applied (a refused or failed ref keeps another value). */
export async function appliedUpdates(repoPath: string, asked: RefUpdate[]): Promise<RefUpdate[]> {
  if (!asked.length) return [];
  const now = await refSnapshot(repoPath);
  return asked.filter((u) => (isZero(u.after) ? !now.has(u.ref) : now.get(u.ref) === u.after));
}

/** One commit in push payload form (hook test deliveries); null for an unknown revision. */
export async function readPushCommit(repoPath: string, rev: string): Promise<PushCommit | null> {
  return pushCommit(repoPath, await getCommit(repoPath, rev));
}
