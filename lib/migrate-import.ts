// Writing what lib/migrate-remote.ts reads into the freshly cloned repository (Forgejo's
// services/migrations/migrate.go order and gitea_uploader.go rules): milestones, labels, releases,
// issues with their comments and reactions, then pull requests. It runs inside the migration's
// transaction and git directory (lib/mirrors.ts): when anything here throws, the rows roll back and
// the directory is removed, so a migration is one unit.
//
// People: the source's numbers are kept, and so are the authors' names, as `original_author` and
// `original_author_id` on a Ghost (-1) poster. Forgejo maps authors only by a linked external login,
// which cairn does not have, or by id and name when the source is this very instance; cairn does the
// latter. Assignees, which Forgejo drops, are kept when a local user of that login may be assigned
// (has write access to the issues or pulls of the new repository).
import { randomUUID } from 'node:crypto';
import fs from 'node:fs';
import { dirname } from 'node:path';
import type { EntityManager } from '@mikro-orm/core';
import type { Config } from '../config.ts';
import { Attachment } from '../model/attachment.ts';
import { Comment, CommentType, Issue, Reaction, type IIssue } from '../model/issue.ts';
import { Milestone } from '../model/milestone.ts';
import { PullRequest, PullStatus } from '../model/pull.ts';
import { Release } from '../model/release.ts';
import type { IRepository } from '../model/repo.ts';
import { User, type IUser } from '../model/user.ts';
import { attachmentPath, isValidExternalUrl } from './attachments.ts';
import { createIssue, recountIssueTotals } from './issues.ts';
import { retestPull } from './pulls.ts';
import type { Services } from './services.ts';
import { repoPermission } from './perm.ts';
import type { Remote } from './remote-url.ts';
import { fetchSourceLabels, insertLabels } from './migrate-labels.ts';
import {
  downloadAsset, issuePages, pullPages, readComments, readMilestones, readPageSize, readReactions, readReleases,
  type ApiSource, type SourceAsset, type SourceIssue, type SourcePull, type SourceReaction, type SourceRelease, type SourceUser,
} from './migrate-remote.ts';
import { countCommits } from '../git/commits.ts';
import { RefExistsError } from '../git/errors.ts';
import { hasCommit, writeRefs } from '../git/import-refs.ts';
import { fetchPullHeads } from '../git/remote.ts';
import { mergeBase } from '../git/merge.ts';
import { isValidBranchName, isValidRefName, isValidTagName } from '../git/refname.ts';
import { createBranchRef } from '../git/refs.ts';
import { listRefs, revParse } from '../git/repo.ts';

/** What to import. Comments come with issues and pull requests (Forgejo's API sets its Comments option for either). */
export interface ImportPlan { milestones: boolean; labels: boolean; releases: boolean; issues: boolean; pulls: boolean }

export interface ImportTarget {
  em: EntityManager;
  cfg: Config;
  services: Services;
  repo: IRepository;
  owner: IUser;
  doer: IUser;
  /** The bare repository the clone went into. */
  path: string;
  /** The clone URL (credential-free) and its credentials. */
  remote: Remote;
}

/** Columns are 255 characters wide; the source's own limits may differ. */
const cut = (s: string, n = 255) => (s.length > n ? s.slice(0, n) : s);

interface Author { posterId: number; originalAuthor: string; originalAuthorId: number }

/** Maps the source's people to local users (see the head of this file). */
class People {
  private readonly byId = new Map<number, number>();
  private readonly assignable = new Map<string, number>();
  private readonly t: ImportTarget;
  private readonly sameInstance: boolean;
  constructor(t: ImportTarget, sameInstance: boolean) {
    this.t = t;
    this.sameInstance = sameInstance;
  }

  async author(u: SourceUser): Promise<Author> {
    const local = this.sameInstance && !u.imported ? await this.localId(u) : 0;
    return local > 0 ? { posterId: local, originalAuthor: '', originalAuthorId: 0 } : { posterId: -1, originalAuthor: cut(u.login), originalAuthorId: u.id };
  }

  /** Forgejo's remapLocalUser: the same id, still under the same name. */
  private async localId(u: SourceUser): Promise<number> {
    if (u.id <= 0) return 0;
    let id = this.byId.get(u.id);
    if (id === undefined) {
      const found = await this.t.em.findOne(User, { id: u.id, type: 0 });
      id = found && found.name === u.login ? found.id : 0;
      this.byId.set(u.id, id);
    }
    return id;
  }

  async assignees(logins: string[], unit: 'issues' | 'pulls'): Promise<number[]> {
    const ids: number[] = [];
    for (const login of logins) {
      const key = `${unit}:${login.toLowerCase()}`;
      let id = this.assignable.get(key);
      if (id === undefined) {
        id = 0;
        const u = await this.t.em.findOne(User, { lowerName: login.toLowerCase(), type: 0 });
        if (u) {
          const perm = await repoPermission(this.t.em, { repo: this.t.repo, owner: this.t.owner, doer: u, siteAdmin: false, token: null });
          if (perm.canWrite(unit)) id = u.id;
        }
        this.assignable.set(key, id);
      }
      if (id > 0) ids.push(id);
    }
    return ids;
  }
}

interface Run {
  t: ImportTarget;
  src: ApiSource;
  people: People;
  comments: boolean;
  milestones: Map<string, number>;
  labels: Map<string, number>;
  /** Numbers already taken: a source that lists one twice must not break the unique index. */
  numbers: Set<number>;
  /** Asset files written so far, removed again when the import fails. */
  files: string[];
}

/** Reads the source through its API and writes everything the plan asks for into `t.repo`. */
export async function importFromApi(t: ImportTarget, src: ApiSource, plan: ImportPlan): Promise<void> {
  const files: string[] = [];
  try {
    await importAll(t, src, plan, files);
  } catch (e) {
    await Promise.all(files.map((f) => fs.promises.rm(f, { force: true })));
    throw e;
  }
}

async function importAll(t: ImportTarget, src: ApiSource, plan: ImportPlan, files: string[]): Promise<void> {
  const { em, cfg, repo } = t;
  await readPageSize(cfg, src);
  const run: Run = {
    t, src, people: new People(t, t.remote.url.startsWith(cfg.appUrl)), comments: plan.issues || plan.pulls,
    milestones: plan.milestones ? await importMilestones(t, src) : new Map(),
    labels: plan.labels ? await insertLabels(em, repo.id, await fetchSourceLabels(cfg, src)) : new Map(),
    numbers: new Set(), files,
  };
  if (plan.releases) await importReleases(run, await readReleases(cfg, src));
  if (plan.issues) {
    for await (const page of issuePages(cfg, src)) for (const issue of page) await importIssue(run, issue, null);
  }
  if (plan.pulls) await importPulls(run);
  await recountIssueTotals(em, { repoIds: [repo.id], labelIds: [...run.labels.values()], milestoneIds: [...run.milestones.values()] });
  // The counters were recounted in SQL; the entity answers the request, so it learns them too.
  repo.numOpenIssues = await em.count(Issue, { repoId: repo.id, isPull: false, isClosed: false });
  repo.numOpenPulls = await em.count(Issue, { repoId: repo.id, isPull: true, isClosed: false });
  await em.flush();
}

async function importMilestones(t: ImportTarget, src: ApiSource): Promise<Map<string, number>> {
  const now = new Date();
  const rows = (await readMilestones(t.cfg, src)).map((m) => {
    const createdAt = m.createdAt ?? m.updatedAt ?? m.deadline ?? now;
    return t.em.create(Milestone, {
      repoId: t.repo.id, name: cut(m.title), description: m.description, isClosed: m.closed, deadline: m.deadline,
      closedAt: m.closed ? (m.closedAt ?? m.updatedAt ?? createdAt) : null, createdAt, updatedAt: m.updatedAt ?? createdAt,
    });
  });
  await t.em.flush();
  const ids = new Map<string, number>();
  for (const r of rows) if (!ids.has(r.name)) ids.set(r.name, r.id);
  return ids;
}

/**
 * Release rows for the source's releases; the tags themselves came with the clone. A tag name git
 * would refuse is dropped, as is a second release of the same tag. Asset bytes are downloaded into the
 * attachment store (an external asset stays a link).
 */
async function importReleases(run: Run, releases: SourceRelease[]): Promise<void> {
  const { em, repo, path } = run.t;
  const taken = new Set<string>();
  let published = 0;
  for (const r of releases) {
    const lower = r.tagName.toLowerCase();
    if (!isValidTagName(r.tagName) || r.tagName.length > 255 || taken.has(lower)) continue;
    taken.add(lower);
    const sha = await revParse(path, `refs/tags/${r.tagName}^{commit}`);
    const who = await run.people.author(r.publisher);
    const createdAt = r.createdAt ?? new Date();
    const rel = em.create(Release, {
      repoId: repo.id, publisherId: who.posterId, originalAuthor: who.originalAuthor, originalAuthorId: who.originalAuthorId,
      tagName: r.tagName, lowerTagName: lower, target: isValidRefName(r.target) ? cut(r.target) : '', title: cut(r.name),
      sha1: sha ?? '', numCommits: sha ? await countCommits(path, { rev: sha }) : 0, note: r.body,
      isDraft: r.draft, isPrerelease: r.prerelease, isTag: false, createdAt,
    });
    await em.flush();
    for (const a of r.assets) await importAsset(run, rel.id, a, createdAt);
    if (!r.draft) published++;
  }
  repo.numReleases = published;
  await em.flush();
}

async function importAsset(run: Run, releaseId: number, a: SourceAsset, releaseCreated: Date): Promise<void> {
  const { em, cfg, repo } = run.t;
  const uuid = randomUUID();
  const link = { repoId: repo.id, releaseId, uuid, name: cut(a.name), downloadCount: a.downloadCount, createdAt: a.createdAt ?? releaseCreated };
  if (a.external) {
    if (isValidExternalUrl(a.url)) em.create(Attachment, { ...link, externalUrl: a.url });
    return;
  }
  const dest = attachmentPath(cfg, uuid);
  await fs.promises.mkdir(dirname(dest), { recursive: true });
  run.files.push(dest, `${dest}.tmp`);
  const size = await downloadAsset(cfg, run.src, a, `${dest}.tmp`, cfg.ATTACHMENT.MAX_SIZE * 1024 * 1024);
  await fs.promises.rename(`${dest}.tmp`, dest);
  em.create(Attachment, { ...link, size });
}

/** One issue or pull request with its reactions and comments; the pull request row is the caller's. */
async function importIssue(run: Run, s: SourceIssue, pull: { mergedAt: Date | null } | null): Promise<IIssue | null> {
  const { em, repo } = run.t;
  if (run.numbers.has(s.number)) return null;
  run.numbers.add(s.number);
  const who = await run.people.author(s.author);
  const createdAt = s.createdAt ?? s.closedAt ?? pull?.mergedAt ?? new Date();
  const updatedAt = s.updatedAt ?? createdAt;
  const issue = await createIssue(em, {
    repo, index: s.number, posterId: who.posterId, originalAuthor: who.originalAuthor, originalAuthorId: who.originalAuthorId,
    title: s.title, content: s.body, ref: s.ref && isValidRefName(s.ref) ? cut(s.ref) : '', isPull: !!pull, isClosed: s.closed,
    milestoneId: (s.milestone && run.milestones.get(cut(s.milestone))) || 0,
    labelIds: s.labels.map((n) => run.labels.get(n)).filter((id) => id !== undefined),
    assigneeIds: await run.people.assignees(s.assignees, pull ? 'pulls' : 'issues'),
    createdAt, updatedAt, closedAt: s.closedAt ?? pull?.mergedAt ?? updatedAt,
  });
  await addReactions(run, issue.id, 0, await readReactions(run.t.cfg, run.src, { index: s.number }));
  const numComments = run.comments ? await importComments(run, issue, s.number) : 0;
  // Set without the entity: its `updatedAt` would otherwise become "now" on the next flush.
  await em.nativeUpdate(Issue, { id: issue.id }, { numComments, isLocked: s.locked, updatedAt });
  return issue;
}

async function importComments(run: Run, issue: IIssue, index: number): Promise<number> {
  const { em } = run.t;
  const source = await readComments(run.t.cfg, run.src, index);
  const rows = [];
  for (const c of source) {
    const who = await run.people.author(c.author);
    const createdAt = c.createdAt ?? issue.createdAt;
    rows.push(em.create(Comment, {
      type: CommentType.comment, issueId: issue.id, posterId: who.posterId, originalAuthor: who.originalAuthor, originalAuthorId: who.originalAuthorId,
      content: c.body, createdAt, updatedAt: c.updatedAt ?? createdAt,
    }));
  }
  await em.flush();
  for (const [i, row] of rows.entries()) {
    await addReactions(run, issue.id, row.id, await readReactions(run.t.cfg, run.src, { comment: source[i].id }));
  }
  return rows.length;
}

async function addReactions(run: Run, issueId: number, commentId: number, reactions: SourceReaction[]): Promise<void> {
  const seen = new Set<string>();
  for (const r of reactions) {
    if (r.content.length > 64) continue;
    const who = await run.people.author(r.user);
    const key = `${r.content}\0${who.posterId}\0${who.originalAuthor}`;
    if (seen.has(key)) continue;
    seen.add(key);
    run.t.em.create(Reaction, {
      type: r.content, issueId, commentId, userId: who.posterId, originalAuthor: who.originalAuthor, originalAuthorId: who.originalAuthorId,
      createdAt: r.createdAt ?? new Date(),
    });
  }
  await run.t.em.flush();
}

// --- Pull requests -------------------------------------------------------------------------------

const pullRef = (n: number) => `refs/pull/${n}/head`;

/**
 * The source's `refs/pull/<n>/head` come over first; then each pull request, whose head ref is set to
 * the head commit the source names when that commit is here. Pull refs no imported pull uses go again.
 */
async function importPulls(run: Run): Promise<void> {
  const { t } = run;
  await fetchPullHeads(t.path, t.remote.url, t.remote.auth);
  const imported = new Set<number>();
  for await (const page of pullPages(t.cfg, run.src)) {
    for (const p of page) if (await importPull(run, p)) imported.add(p.number);
  }
  const stray = (await listRefs(t.path, 'refs/pull/')).map((r) => r.name).filter((name) => {
    const m = /^refs\/pull\/(\d+)\/head$/.exec(name);
    return !m || !imported.has(Number(m[1]));
  });
  await writeRefs(t.path, { remove: stray });
}

async function importPull(run: Run, p: SourcePull): Promise<boolean> {
  const { t } = run;
  if (run.numbers.has(p.number)) return false;
  const fetched = await revParse(t.path, `${pullRef(p.number)}^{commit}`);
  const head = (await hasCommit(t.path, p.head.sha)) ? p.head.sha : fetched;
  if (head && head !== fetched) await writeRefs(t.path, { set: [[pullRef(p.number), head]] });
  const { headRepoId, headBranch } = await headOf(run, p, head);
  const issue = await importIssue(run, p, { mergedAt: p.mergedAt });
  if (!issue) return false;
  const merged = p.merged && /^[0-9a-f]{40,64}$/.test(p.mergeCommitSha) ? p.mergeCommitSha : '';
  const row = t.em.create(PullRequest, {
    issueId: issue.id, index: p.number, baseRepoId: t.repo.id, headRepoId, baseBranch: cut(p.base.ref), headBranch: cut(headBranch),
    headCommitId: head ?? '', mergeBase: await mergeBaseOf(t.path, p, head),
    status: p.merged ? PullStatus.mergeable : PullStatus.checking,
    hasMerged: p.merged, mergedCommitId: merged, mergerId: p.merged ? t.doer.id : 0, mergedAt: p.merged ? (p.mergedAt ?? issue.closedAt) : null,
  });
  // Forgejo queues a mergeability test for every imported pull; an open one is tested right away.
  if (!p.closed && !p.merged) await retestPull(t.services, row, t.repo, head);
  await t.em.flush();
  return true;
}

/**
 * A pull from the source repository itself keeps its head branch. One from a fork (Forgejo's
 * IsForkPullRequest) gets, while open, a branch `<fork owner>/<branch>` here at its head commit, as
 * Forgejo's uploader fetches it; a closed one, one whose fork is gone, or one whose head commit is
 * missing has no head repository here (0).
 */
async function headOf(run: Run, p: SourcePull, head: string | null): Promise<{ headRepoId: number; headBranch: string }> {
  const { t, src } = run;
  const fork = p.head.repoOwner.toLowerCase() !== src.owner.toLowerCase() || p.head.repoName.toLowerCase() !== src.repo.toLowerCase();
  if (!fork) return { headRepoId: t.repo.id, headBranch: p.head.ref };
  if (p.closed || !head || !p.head.repoOwner) return { headRepoId: 0, headBranch: p.head.ref };
  for (const name of [`${p.head.repoOwner}/${p.head.ref}`, `pr-${p.number}/${p.head.repoOwner}/${p.head.ref}`, `pr-${p.number}-head`]) {
    if (!isValidBranchName(name) || name.length > 255) continue;
    try {
      await createBranchRef(t.path, name, head);
      return { headRepoId: t.repo.id, headBranch: name };
    } catch (e) {
      if (!(e instanceof RefExistsError)) throw e;
    }
  }
  return { headRepoId: 0, headBranch: p.head.ref };
}

/** The source's merge base when this repository has it, else computed from the base branch. */
async function mergeBaseOf(path: string, p: SourcePull, head: string | null): Promise<string> {
  if (await hasCommit(path, p.mergeBase)) return p.mergeBase;
  if (!head || !isValidBranchName(p.base.ref)) return '';
  const base = await revParse(path, `refs/heads/${p.base.ref}`);
  return base ? ((await mergeBase(path, base, head)) ?? '') : '';
}
