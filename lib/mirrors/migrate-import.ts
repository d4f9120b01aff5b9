// Writing what lib/mirrors/migrate-remote.ts reads into the freshly cloned repository (Forgejo's
// services/migrations/migrate.go order and gitea_uploader.go rules): milestones, labels, releases,
// issues with their comments and reactions, then pull requests. In two phases, so that no transaction
// is open while the source is asked (it may be this very instance, whose answers need the database):
// `readImport` reads everything from the source (release assets into the attachment spool, pull heads
// into the staged clone) before the repository exists, and `writeImport` writes it in the migration's
// one short transaction (lib/mirrors/mirrors.ts). When anything fails the rows roll back, and `discardImport`
// removes the files, so a migration is one unit.
//
// People: the source's numbers are kept, and so are the authors' names, as `original_author` and
// `original_author_id` on a Ghost (-1) poster. Forgejo maps authors only by a linked external login,
// which cairn does not have, or by id and name when the source is this very instance; cairn does the
// latter. Assignees, which Forgejo drops, are kept when a local user of that login may be assigned
// (has write access to the issues or pulls of the new repository).
import { randomUUID } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import type { EntityManager } from '@mikro-orm/core';
import type { Config } from '../../config.ts';
import { Attachment } from '../../model/attachment.ts';
import { Comment, CommentType, Issue, Reaction, type IIssue } from '../../model/issue.ts';
import { Milestone } from '../../model/milestone.ts';
import { PullRequest, PullStatus } from '../../model/pull.ts';
import { Release } from '../../model/release.ts';
import type { IRepository } from '../../model/repo.ts';
import { User, type IUser } from '../../model/user.ts';
import { attachmentPath, attachmentsRoot, isValidExternalUrl } from '../attachments/index.ts';
import { createIssue, recountIssueTotals } from '../issues/index.ts';
import { retestPull } from '../pulls/index.ts';
import type { Services } from '../http/services.ts';
import { repoPermission } from '../auth/perm.ts';
import type { Remote } from './remote-url.ts';
import { fetchSourceLabels, insertLabels, type SourceLabel } from './migrate-labels.ts';
import {
  downloadAsset,
  issuePages,
  pullPages,
  readComments,
  readMilestones,
  readPageSize,
  readReactions,
  readReleases,
  type ApiSource,
  type SourceAsset,
  type SourceComment,
  type SourceIssue,
  type SourceMilestone,
  type SourcePull,
  type SourceReaction,
  type SourceRelease,
  type SourceUser,
} from './migrate-remote.ts';
import { countCommits } from '../../git/commits.ts';
import { RefExistsError } from '../../git/errors.ts';
import { hasCommit, writeRefs } from '../../git/import-refs.ts';
import { fetchPullHeads } from '../../git/remote.ts';
import { mergeBase } from '../../git/merge.ts';
import { isValidBranchName, isValidRefName, isValidTagName } from '../../git/refname.ts';
import { createBranchRef } from '../../git/refs.ts';
import { listRefs, revParse } from '../../git/repo.ts';

/** What to import. Comments come with issues and pull requests (Forgejo's API sets its Comments option for either). */
export interface ImportPlan {
  milestones: boolean;
  labels: boolean;
  releases: boolean;
  issues: boolean;
  pulls: boolean;
}

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

interface Author {
  posterId: number;
  originalAuthor: string;
  originalAuthorId: number;
}

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
    return local > 0
      ? { posterId: local, originalAuthor: '', originalAuthorId: 0 }
      : { posterId: -1, originalAuthor: cut(u.login), originalAuthorId: u.id };
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

/** A release asset as read: its bytes in the attachment spool, or none for a link. */
interface ReadAsset {
  asset: SourceAsset;
  uuid: string;
  size: number;
}
interface ReadRelease {
  release: SourceRelease;
  assets: ReadAsset[];
}
interface ReadComment {
  comment: SourceComment;
  reactions: SourceReaction[];
}
interface ReadIssue<I extends SourceIssue = SourceIssue> {
  issue: I;
  reactions: SourceReaction[];
  comments: ReadComment[];
}

/** Everything an import writes, read from the source before anything is written. */
export interface ImportData {
  /** The source repository's owner and name (a pull from elsewhere came from a fork). */
  source: { owner: string; repo: string };
  milestones: SourceMilestone[] | null;
  labels: SourceLabel[] | null;
  releases: ReadRelease[] | null;
  issues: ReadIssue[];
  pulls: ReadIssue<SourcePull>[] | null;
  /** Files written for the import (spooled assets, then their places in the store): `discardImport` removes them. */
  files: string[];
}

/** Where a release asset waits between its download and the import's transaction (lib/maintenance/leftovers.ts clears it at start). */
const spooled = (cfg: Config, uuid: string) => path.join(attachmentsRoot(cfg), 'tmp', `migrate-${uuid}`);

/**
 * Reads what the plan asks for from the source, holding no transaction: release assets are downloaded
 * into the attachment spool and the source's pull heads fetched into `into` (the staged clone). When
 * this throws, it has removed the files it wrote.
 */
export async function readImport(
  cfg: Config,
  src: ApiSource,
  plan: ImportPlan,
  into: { path: string; remote: Remote },
): Promise<ImportData> {
  const data: ImportData = {
    source: { owner: src.owner, repo: src.repo },
    milestones: null,
    labels: null,
    releases: null,
    issues: [],
    pulls: null,
    files: [],
  };
  try {
    await readAll(cfg, src, plan, into, data);
  } catch (e) {
    await discardImport(data);
    throw e;
  }
  return data;
}

/** Removes the files an import wrote (after a failure: on success they are the attachments' own). */
export async function discardImport(data: ImportData): Promise<void> {
  await Promise.all(data.files.map((f) => fs.promises.rm(f, { force: true })));
}

async function readAll(
  cfg: Config,
  src: ApiSource,
  plan: ImportPlan,
  into: { path: string; remote: Remote },
  data: ImportData,
): Promise<void> {
  await readPageSize(cfg, src);
  if (plan.milestones) data.milestones = await readMilestones(cfg, src);
  if (plan.labels) data.labels = await fetchSourceLabels(cfg, src);
  if (plan.releases) {
    data.releases = [];
    // A tag name git would refuse is dropped, as is a second release of the same tag.
    const taken = new Set<string>();
    for (const release of await readReleases(cfg, src)) {
      const lower = release.tagName.toLowerCase();
      if (!isValidTagName(release.tagName) || release.tagName.length > 255 || taken.has(lower)) continue;
      taken.add(lower);
      const assets: ReadAsset[] = [];
      for (const asset of release.assets) assets.push(await readAsset(cfg, src, asset, data.files));
      data.releases.push({ release, assets });
    }
  }
  // Numbers already taken: a source that lists one twice must not break the unique index.
  const numbers = new Set<number>();
  // Comments come with issues and with pull requests.
  const withTalk = async <I extends SourceIssue>(issue: I): Promise<ReadIssue<I>> => ({
    issue,
    reactions: await readReactions(cfg, src, { index: issue.number }),
    comments: await readTalk(cfg, src, issue.number),
  });
  if (plan.issues) {
    for await (const page of issuePages(cfg, src)) {
      for (const issue of page) {
        if (numbers.has(issue.number)) continue;
        numbers.add(issue.number);
        data.issues.push(await withTalk(issue));
      }
    }
  }
  if (plan.pulls) {
    // The source's `refs/pull/<n>/head` come over first.
    await fetchPullHeads(into.path, into.remote.url, into.remote.auth);
    data.pulls = [];
    for await (const page of pullPages(cfg, src)) {
      for (const pull of page) {
        if (numbers.has(pull.number)) continue;
        numbers.add(pull.number);
        data.pulls.push(await withTalk(pull));
      }
    }
  }
}

async function readTalk(cfg: Config, src: ApiSource, index: number): Promise<ReadComment[]> {
  const out: ReadComment[] = [];
  for (const comment of await readComments(cfg, src, index))
    out.push({ comment, reactions: await readReactions(cfg, src, { comment: comment.id }) });
  return out;
}

/** Downloads an asset's bytes into the spool (an external asset stays a link). */
async function readAsset(cfg: Config, src: ApiSource, asset: SourceAsset, files: string[]): Promise<ReadAsset> {
  const uuid = randomUUID();
  if (asset.external) return { asset, uuid, size: 0 };
  const file = spooled(cfg, uuid);
  await fs.promises.mkdir(path.dirname(file), { recursive: true });
  files.push(file);
  const size = await downloadAsset(cfg, src, asset, file, cfg.ATTACHMENT.MAX_SIZE * 1024 * 1024);
  return { asset, uuid, size };
}

interface Run {
  t: ImportTarget;
  /** The source repository's owner and name. */
  source: { owner: string; repo: string };
  people: People;
  milestones: Map<string, number>;
  labels: Map<string, number>;
  /** Files placed in the attachment store, removed again when the import fails. */
  files: string[];
}

/** Writes what `readImport` read into `t.repo`, in the caller's transaction; the files it places are added to `data.files`. */
export async function writeImport(t: ImportTarget, data: ImportData): Promise<void> {
  const { em, cfg, repo } = t;
  const run: Run = {
    t,
    source: data.source,
    people: new People(t, t.remote.url.startsWith(cfg.appUrl)),
    milestones: data.milestones ? await importMilestones(t, data.milestones) : new Map(),
    labels: data.labels ? await insertLabels(em, repo.id, data.labels) : new Map(),
    files: data.files,
  };
  if (data.releases) await importReleases(run, data.releases);
  for (const issue of data.issues) await importIssue(run, issue, null);
  if (data.pulls) await importPulls(run, data.pulls);
  await recountIssueTotals(em, { repoIds: [repo.id], labelIds: [...run.labels.values()], milestoneIds: [...run.milestones.values()] });
  // The counters were recounted in SQL; the entity answers the request, so it learns them too.
  repo.numOpenIssues = await em.count(Issue, { repoId: repo.id, isPull: false, isClosed: false });
  repo.numOpenPulls = await em.count(Issue, { repoId: repo.id, isPull: true, isClosed: false });
  await em.flush();
}

async function importMilestones(t: ImportTarget, milestones: SourceMilestone[]): Promise<Map<string, number>> {
  const now = new Date();
  const rows = milestones.map((m) => {
    const createdAt = m.createdAt ?? m.updatedAt ?? m.deadline ?? now;
    return t.em.create(Milestone, {
      repoId: t.repo.id,
      name: cut(m.title),
      description: m.description,
      isClosed: m.closed,
      deadline: m.deadline,
      closedAt: m.closed ? (m.closedAt ?? m.updatedAt ?? createdAt) : null,
      createdAt,
      updatedAt: m.updatedAt ?? createdAt,
    });
  });
  await t.em.flush();
  const ids = new Map<string, number>();
  for (const r of rows) if (!ids.has(r.name)) ids.set(r.name, r.id);
  return ids;
}

/**
 * Release rows for the source's releases (`readImport` kept one per usable tag name); the tags
 * themselves came with the clone. Downloaded asset bytes go from the spool into the attachment store
 * (an external asset stays a link).
 */
async function importReleases(run: Run, releases: ReadRelease[]): Promise<void> {
  const { em, repo, path } = run.t;
  let published = 0;
  for (const { release: r, assets } of releases) {
    const sha = await revParse(path, `refs/tags/${r.tagName}^{commit}`);
    const who = await run.people.author(r.publisher);
    const createdAt = r.createdAt ?? new Date();
    const rel = em.create(Release, {
      repoId: repo.id,
      publisherId: who.posterId,
      originalAuthor: who.originalAuthor,
      originalAuthorId: who.originalAuthorId,
      tagName: r.tagName,
      lowerTagName: r.tagName.toLowerCase(),
      target: isValidRefName(r.target) ? cut(r.target) : '',
      title: cut(r.name),
      sha1: sha ?? '',
      numCommits: sha ? await countCommits(path, { rev: sha }) : 0,
      note: r.body,
      isDraft: r.draft,
      isPrerelease: r.prerelease,
      isTag: false,
      createdAt,
    });
    await em.flush();
    for (const a of assets) await importAsset(run, rel.id, a, createdAt);
    if (!r.draft) published++;
  }
  repo.numReleases = published;
  await em.flush();
}

async function importAsset(run: Run, releaseId: number, { asset: a, uuid, size }: ReadAsset, releaseCreated: Date): Promise<void> {
  const { em, cfg, repo } = run.t;
  const link = {
    repoId: repo.id,
    releaseId,
    uuid,
    name: cut(a.name),
    downloadCount: a.downloadCount,
    createdAt: a.createdAt ?? releaseCreated,
  };
  if (a.external) {
    if (isValidExternalUrl(a.url)) em.create(Attachment, { ...link, externalUrl: a.url });
    return;
  }
  const dest = attachmentPath(cfg, uuid);
  await fs.promises.mkdir(path.dirname(dest), { recursive: true });
  run.files.push(dest);
  await fs.promises.rename(spooled(cfg, uuid), dest);
  em.create(Attachment, { ...link, size });
}

/** One issue or pull request with its reactions and comments; the pull request row is the caller's. */
async function importIssue(run: Run, read: ReadIssue, pull: { mergedAt: Date | null } | null): Promise<IIssue> {
  const { em, repo } = run.t;
  const s = read.issue;
  const who = await run.people.author(s.author);
  const createdAt = s.createdAt ?? s.closedAt ?? pull?.mergedAt ?? new Date();
  const updatedAt = s.updatedAt ?? createdAt;
  const issue = await createIssue(em, {
    repo,
    index: s.number,
    posterId: who.posterId,
    originalAuthor: who.originalAuthor,
    originalAuthorId: who.originalAuthorId,
    title: s.title,
    content: s.body,
    ref: s.ref && isValidRefName(s.ref) ? cut(s.ref) : '',
    isPull: !!pull,
    isClosed: s.closed,
    milestoneId: (s.milestone && run.milestones.get(cut(s.milestone))) || 0,
    labelIds: s.labels.map((n) => run.labels.get(n)).filter((id) => id !== undefined),
    assigneeIds: await run.people.assignees(s.assignees, pull ? 'pulls' : 'issues'),
    createdAt,
    updatedAt,
    closedAt: s.closedAt ?? pull?.mergedAt ?? updatedAt,
  });
  await addReactions(run, issue.id, 0, read.reactions);
  const numComments = await importComments(run, issue, read.comments);
  // Set without the entity: its `updatedAt` would otherwise become "now" on the next flush.
  await em.nativeUpdate(Issue, { id: issue.id }, { numComments, isLocked: s.locked, updatedAt });
  return issue;
}

async function importComments(run: Run, issue: IIssue, comments: ReadComment[]): Promise<number> {
  const { em } = run.t;
  const rows = [];
  for (const { comment: c } of comments) {
    const who = await run.people.author(c.author);
    const createdAt = c.createdAt ?? issue.createdAt;
    rows.push(
      em.create(Comment, {
        type: CommentType.comment,
        issueId: issue.id,
        posterId: who.posterId,
        originalAuthor: who.originalAuthor,
        originalAuthorId: who.originalAuthorId,
        content: c.body,
        createdAt,
        updatedAt: c.updatedAt ?? createdAt,
      }),
    );
  }
  await em.flush();
  for (const [i, row] of rows.entries()) await addReactions(run, issue.id, row.id, comments[i]!.reactions);
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
      type: r.content,
      issueId,
      commentId,
      userId: who.posterId,
      originalAuthor: who.originalAuthor,
      originalAuthorId: who.originalAuthorId,
      createdAt: r.createdAt ?? new Date(),
    });
  }
  await run.t.em.flush();
}

// --- Pull requests -------------------------------------------------------------------------------

const pullRef = (n: number) => `refs/pull/${n}/head`;

/**
 * Each pull request (its `refs/pull/<n>/head` came with `readImport`), whose head ref is set to the
 * head commit the source names when that commit is here. Pull refs no imported pull uses go again.
 */
async function importPulls(run: Run, pulls: ReadIssue<SourcePull>[]): Promise<void> {
  const { t } = run;
  const imported = new Set<number>();
  for (const p of pulls) {
    await importPull(run, p);
    imported.add(p.issue.number);
  }
  const stray = (await listRefs(t.path, 'refs/pull/'))
    .map((r) => r.name)
    .filter((name) => {
      const m = /^refs\/pull\/(\d+)\/head$/.exec(name);
      return !m || !imported.has(Number(m[1]));
    });
  await writeRefs(t.path, { remove: stray });
}

async function importPull(run: Run, read: ReadIssue<SourcePull>): Promise<void> {
  const { t } = run;
  const p = read.issue;
  const fetched = await revParse(t.path, `${pullRef(p.number)}^{commit}`);
  const head = (await hasCommit(t.path, p.head.sha)) ? p.head.sha : fetched;
  if (head && head !== fetched) await writeRefs(t.path, { set: [[pullRef(p.number), head]] });
  const { headRepoId, headBranch } = await headOf(run, p, head);
  const issue = await importIssue(run, read, { mergedAt: p.mergedAt });
  const merged = p.merged && /^[0-9a-f]{40,64}$/.test(p.mergeCommitSha) ? p.mergeCommitSha : '';
  const row = t.em.create(PullRequest, {
    issueId: issue.id,
    index: p.number,
    baseRepoId: t.repo.id,
    headRepoId,
    baseBranch: cut(p.base.ref),
    headBranch: cut(headBranch),
    headCommitId: head ?? '',
    mergeBase: await mergeBaseOf(t.path, p, head),
    status: p.merged ? PullStatus.mergeable : PullStatus.checking,
    hasMerged: p.merged,
    mergedCommitId: merged,
    mergerId: p.merged ? t.doer.id : 0,
    mergedAt: p.merged ? (p.mergedAt ?? issue.closedAt) : null,
  });
  // Forgejo queues a mergeability test for every imported pull; an open one is tested right away.
  if (!p.closed && !p.merged) await retestPull(t.services, row, t.repo, head);
  await t.em.flush();
}

/**
 * A pull from the source repository itself keeps its head branch. One from a fork (Forgejo's
 * IsForkPullRequest) gets, while open, a branch `<fork owner>/<branch>` here at its head commit, as
 * Forgejo's uploader fetches it; a closed one, one whose fork is gone, or one whose head commit is
 * missing has no head repository here (0).
 */
async function headOf(run: Run, p: SourcePull, head: string | null): Promise<{ headRepoId: number; headBranch: string }> {
  const { t, source: src } = run;
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
