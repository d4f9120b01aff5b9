// Releases and release assets (Forgejo routers/api/v1/repo/{release,release_tags,release_attachment}.go,
// services/release). A published release needs its git tag: when the tag is missing it is created as a
// lightweight tag on `target_commitish` (honouring tag protections); a draft touches no git data.
// Deleting a release keeps its tag. Draft releases, and their assets, exist only for writers of the
// releases unit. `num_releases` (api.Repository release_counter) is recounted in SQL after each change.
import { emitEvent } from '../lib/activity/events.ts';
import { emitRefUpdates } from '../lib/transport/push-events.ts';
import { UniqueConstraintViolationException, type EntityManager, type FilterQuery } from '@mikro-orm/core';
import type { Handler, SignedInCtx } from '../lib/http/handler.ts';
import { json, noContent, signedIn } from '../lib/http/handler.ts';
import type { CreateReleaseOption, EditAttachmentOptions, EditReleaseOption } from '../model/schemas/index.ts';
import { Release, type IRelease } from '../model/release.ts';
import { releaseAssets, releaseAssetsToApi, releasesToApi, releaseToApi } from '../lib/repos/api/release.ts';
import { toApiAttachment } from '../lib/issues/api/issue.ts';
import { lookupRef, readRef } from '../git/lookup.ts';
import { createLightweightTag, deleteRef } from '../git/refs.ts';
import { countCommits } from '../git/commits.ts';
import { zeroOid } from '../git/oid.ts';
import { isValidTagName } from '../git/refname.ts';
import { badRequest, conflict, HttpError, MSG, notFound, unprocessable } from '../lib/http/errors.ts';
import { pageOf, pagingHeaders } from '../lib/http/paging.ts';
import { gitCtx, gitWrite, refreshAfterWrite, type GitCtx } from '../lib/repos/git.ts';
import { canControlTag } from '../lib/repos/branch-rules.ts';
import { lockCounterRows } from '../lib/db/counters.ts';
import { positiveInt, truncateTitle } from '../lib/issues/issues.ts';
import {
  attachmentName,
  createExternal,
  createUploaded,
  deleteAttachments,
  formValue,
  isValidExternalUrl,
  loadAttachment,
  uploadedFile,
} from '../lib/attachments/attachments.ts';
import { isSiteAdmin, need, type RequestState } from '../lib/http/request.ts';
import type { IRepository } from '../model/repo.ts';
import type { QueryOf } from '../model/schemas/query.ts';
import { sql, writeSql } from '../model/sql.ts';

const viewerOf = (c: RequestState) => ({ doer: c.auth.doer, siteAdmin: isSiteAdmin(c) });
const canWriteReleases = (c: RequestState) => need(c.repo, 'repo').perm.canWrite('releases');

/** forgejo-facts 12.5: `Accept: application/vnd.github+json` switches the upload URL to GitHub's template. */
const githubFormat = (c: RequestState) =>
  String(c.headers.accept ?? '')
    .split(',')
    .some((t) => t.split(';')[0].trim().toLowerCase() === 'application/vnd.github+json');

async function reply(c: RequestState, status: number, rel: IRelease) {
  return json(status, await releaseToApi(c.em, c.config, viewerOf(c), gitCtx(c).urls, rel, { githubUploadUrl: githubFormat(c) }));
}

/**
 * Recount the published releases of a repository in SQL, under the repository's row lock so concurrent
 * writers and processes converge (lib/db/counters.ts).
 */
export async function recountReleases(em: EntityManager, repoId: number): Promise<void> {
  await em.flush();
  await lockCounterRows(em, { repository: [repoId] });
  await writeSql(
    em,
    sql`update repository r set num_releases = (select count(*) from release x where x.repo_id = r.id and not x.is_draft and not x.is_tag) where r.id = ${repoId}`,
  );
}

/** A release (not a bare tag record) of the loaded repository; drafts only for writers. Else 404. */
function visible(c: RequestState, rel: IRelease | null): IRelease {
  if (!rel || rel.isTag || (rel.isDraft && !canWriteReleases(c))) throw notFound();
  return rel;
}

async function releaseById(c: RequestState): Promise<IRelease> {
  const id = positiveInt(c.params.id);
  const repoId = need(c.repo, 'repo').repo.id;
  return visible(c, id === null ? null : await c.em.findOne(Release, { id, repoId }));
}

async function releaseByTag(c: RequestState): Promise<IRelease> {
  const repoId = need(c.repo, 'repo').repo.id;
  return visible(c, await c.em.findOne(Release, { repoId, lowerTagName: (c.params.tag ?? '').toLowerCase() }));
}

/**
 * Forgejo's createTag refuses every release write on an archived repository; the route table has no NA
 * step (the spec lists none), so the handler answers what NA would.
 */
function refuseArchived(repo: IRepository): void {
  if (repo.isArchived) throw new HttpError(423, MSG.archived(repo.id, repo.ownerName, repo.name));
}

function checkTagName(tag: string): string {
  if (tag === '') throw unprocessable('[TagName]: Required');
  if ([...tag].length > 255) throw unprocessable('[TagName]: MaxSize');
  if (!isValidTagName(tag)) throw unprocessable(`release tag name is not valid [tag_name: ${tag}]`);
  return tag;
}

/**
 * For a published release: create its tag when missing (a protected tag only for users the rule allows,
 * as TAG_CONTROL answers for POST /tags) and record the tagged commit and its commit count. Returns the
 * id of a tag it created, so a failed insert can take it back.
 */
async function ensureTag(c: RequestState, g: GitCtx, rel: IRelease): Promise<string | null> {
  if (rel.isDraft) {
    // Forgejo stamps drafts with the time of their last save.
    rel.createdAt = new Date();
    return null;
  }
  let created: string | null = null;
  if (!(await readRef(g.path, 'tags', rel.tagName))) {
    if (!(await canControlTag(c.em, g.repo.id, rel.tagName, c.auth.doer))) throw unprocessable('user not allowed to create protected tag');
    const target = g.repo.isEmpty ? null : await lookupRef(g.path, rel.target);
    if (!target?.commit) throw notFound(`target "${rel.target}" not found: object does not exist [id: ${rel.target}, rel_path: ]`);
    const commit = target.commit;
    created = await gitWrite(() => createLightweightTag(g.path, rel.tagName, commit));
    rel.createdAt = new Date();
  }
  const commit = (await readRef(g.path, 'tags', rel.tagName, true))?.oid;
  if (!commit) throw unprocessable(`tag "${rel.tagName}" does not point to a commit`);
  rel.sha1 = commit;
  rel.numCommits = await countCommits(g.path, { rev: commit });
  return created;
}

/** Flush the release; if that fails (a concurrent release of the same tag), remove the tag this request made. */
async function save(c: SignedInCtx, g: GitCtx, rel: IRelease, createdTag: string | null): Promise<void> {
  try {
    await c.em.flush();
  } catch (e) {
    if (createdTag) {
      await deleteRef(g.path, `refs/tags/${rel.tagName}`, createdTag).catch((err: unknown) =>
        c.services.log.warn({ err }, 'could not remove the tag of a failed release'),
      );
    }
    if (e instanceof UniqueConstraintViolationException) throw conflict(`release tag already exist [tag_name: ${rel.tagName}]`);
    throw e;
  }
  if (createdTag) await refreshAfterWrite(c.em, g.repo, g.path);
  if (createdTag)
    await emitRefUpdates(c.em, c, g.repo, c.auth.doer, g.path, [
      { ref: `refs/tags/${rel.tagName}`, before: zeroOid(createdTag), after: createdTag },
    ]);
  await recountReleases(c.em, g.repo.id);
}

const likeEscape = (s: string) => s.replace(/[\\%_]/g, (ch) => `\\${ch}`);

/** `draft` and `pre-release` filter; `q` matches tag, title or notes; newest first. */
export const list: Handler<never, QueryOf<'Releases'>> = async (c) => {
  const { repo } = need(c.repo, 'repo');
  const conds: FilterQuery<IRelease>[] = [{ repoId: repo.id, isTag: false }];
  if (!canWriteReleases(c)) conds.push({ isDraft: false });
  const draft = c.q.draft;
  if (draft !== undefined) conds.push({ isDraft: draft });
  const pre = c.q['pre-release'];
  if (pre !== undefined) conds.push({ isPrerelease: pre });
  const q = (c.q.q ?? '').trim();
  if (q !== '') {
    const like = `%${likeEscape(q)}%`;
    conds.push({
      $or: [{ lowerTagName: { $like: `%${likeEscape(q.toLowerCase())}%` } }, { title: { $ilike: like } }, { note: { $ilike: like } }],
    });
  }
  const p = pageOf(c);
  const [rows, total] = await c.em.findAndCount(
    Release,
    { $and: conds },
    { orderBy: { createdAt: 'desc', id: 'desc' }, limit: p.limit, offset: p.offset },
  );
  const out = await releasesToApi(c.em, c.config, viewerOf(c), gitCtx(c).urls, rows, { githubUploadUrl: githubFormat(c) });
  return json(200, out, pagingHeaders(c, p, total));
};

export const get: Handler = async (c) => reply(c, 200, await releaseById(c));

export const getByTag: Handler = async (c) => reply(c, 200, await releaseByTag(c));

/** The newest published release that is not a pre-release. */
export const getLatest: Handler = async (c) => {
  const { repo } = need(c.repo, 'repo');
  const rel = await c.em.findOne(
    Release,
    { repoId: repo.id, isDraft: false, isPrerelease: false, isTag: false },
    { orderBy: { createdAt: 'desc', id: 'desc' } },
  );
  if (!rel) throw notFound();
  return reply(c, 200, rel);
};

/**
 * Spec, release creation: a missing `name` defaults to the tag name. A bare tag record of the same tag
 * becomes the release (Forgejo); an existing release of that tag is a conflict.
 */
export const create = signedIn<CreateReleaseOption>(async (c) => {
  const g = gitCtx(c);
  const b = c.body;
  refuseArchived(g.repo);
  if (g.repo.isEmpty) throw unprocessable('repo is empty');
  const tag = checkTagName(b.tag_name);
  const existing = await c.em.findOne(Release, { repoId: g.repo.id, lowerTagName: tag.toLowerCase() });
  if (existing && !existing.isTag) throw conflict(`release tag already exist [tag_name: ${tag}]`);
  const rel = existing ?? c.em.create(Release, { repoId: g.repo.id, tagName: tag, lowerTagName: tag.toLowerCase() });
  rel.isTag = false;
  rel.publisherId = c.auth.doer.id;
  rel.target = b.target_commitish || g.repo.defaultBranch;
  rel.title = truncateTitle(b.name || tag);
  rel.note = b.body ?? '';
  rel.isDraft = b.draft ?? false;
  rel.isPrerelease = b.prerelease ?? false;
  rel.hideArchiveLinks = b.hide_archive_links ?? false;
  await save(c, g, rel, await ensureTag(c, g, rel));
  if (!rel.isDraft) await emitEvent(c.em, c, { name: 'release', repo: g.repo, sender: c.auth.doer, action: 'published', release: rel });
  return reply(c, 201, rel);
});

/** Forgejo applies only non-empty strings; publishing a draft creates its tag. */
export const edit = signedIn<EditReleaseOption>(async (c) => {
  const g = gitCtx(c);
  const rel = await releaseById(c);
  const b = c.body;
  const wasDraft = rel.isDraft;
  refuseArchived(g.repo);
  if (b.tag_name) {
    const tag = checkTagName(b.tag_name);
    const other = await c.em.findOne(Release, { repoId: g.repo.id, lowerTagName: tag.toLowerCase(), id: { $ne: rel.id } });
    if (other) throw conflict(`release tag already exist [tag_name: ${tag}]`);
    rel.tagName = tag;
    rel.lowerTagName = tag.toLowerCase();
  }
  if (b.target_commitish) rel.target = b.target_commitish;
  if (b.name) rel.title = truncateTitle(b.name);
  if (b.body) rel.note = b.body;
  if (b.draft !== undefined) rel.isDraft = b.draft;
  if (b.prerelease !== undefined) rel.isPrerelease = b.prerelease;
  if (b.hide_archive_links !== undefined) rel.hideArchiveLinks = b.hide_archive_links;
  await save(c, g, rel, await ensureTag(c, g, rel));
  if (!rel.isDraft)
    await emitEvent(c.em, c, {
      name: 'release',
      repo: g.repo,
      sender: c.auth.doer,
      action: wasDraft ? 'published' : 'updated',
      release: rel,
    });
  return reply(c, 200, rel);
});

/** The release row and its assets go; the git tag stays. */
async function removeRelease(c: SignedInCtx, rel: IRelease): Promise<void> {
  await emitEvent(c.em, c, { name: 'release', repo: need(c.repo, 'repo').repo, sender: c.auth.doer, action: 'deleted', release: rel });
  c.em.remove(rel);
  await deleteAttachments(c, { releaseId: rel.id });
  await recountReleases(c.em, rel.repoId);
}

export const remove = signedIn(async (c) => {
  await removeRelease(c, await releaseById(c));
  return noContent();
});

export const removeByTag = signedIn(async (c) => {
  await removeRelease(c, await releaseByTag(c));
  return noContent();
});

// ---------------------------------------------------------------------------------------------
// Assets

const assetOf = (c: RequestState, rel: IRelease) => loadAttachment(c, (a) => a.releaseId === rel.id && a.repoId === rel.repoId);

export const listAssets: Handler = async (c) => {
  const rel = await releaseById(c);
  return json(200, releaseAssetsToApi(c.config, gitCtx(c).urls, rel, await releaseAssets(c.em, [rel.id])));
};

export const getAsset: Handler = async (c) => {
  const rel = await releaseById(c);
  return json(200, toApiAttachment(c.config, await assetOf(c, rel)));
};

/**
 * Multipart: the file in `attachment` (named by `name`, else by its file name), or an `external_url`
 * (Forgejo 9), never both. Release assets accept the types of [repository.release] ALLOWED_TYPES (all by
 * default); a refused type is 400. The octet-stream body form Forgejo also takes is not supported.
 */
export const createAsset = signedIn<unknown>(async (c) => {
  // Forgejo checks the instance switch here rather than in the route group.
  if (!c.config.ATTACHMENT.ENABLED) throw notFound('Attachment is not enabled');
  const rel = await releaseById(c);
  const { repo } = need(c.repo, 'repo');
  const file = uploadedFile(c.body);
  const externalUrl = formValue(c, 'external_url');
  let name = formValue(c, 'name');
  const link = { repoId: repo.id, releaseId: rel.id, uploaderId: c.auth.doer.id };
  if (file && externalUrl) throw badRequest("'attachment' and 'external_url' are mutually exclusive");
  if (file) {
    name ||= file.originalFilename;
    if (name === '') throw badRequest("Missing 'name' parameter");
    const a = await createUploaded(c, file, name, c.config.REPOSITORY_RELEASE.ALLOWED_TYPES, link, badRequest);
    return json(201, toApiAttachment(c.config, a));
  }
  if (externalUrl) {
    if (!isValidExternalUrl(externalUrl)) throw badRequest(`invalid external URL: '${externalUrl}'`);
    const u = new URL(externalUrl);
    name ||= lastSegment(u.pathname) || u.host;
    return json(201, toApiAttachment(c.config, await createExternal(c, name, externalUrl, link)));
  }
  throw badRequest("One of 'attachment' or 'external_url' is required");
});

/** Forgejo names an external asset by the last segment of its URL's (decoded) path, else its host. */
function lastSegment(pathname: string): string {
  const seg =
    pathname
      .split('/')
      .filter((p) => p !== '')
      .pop() ?? '';
  try {
    return decodeURIComponent(seg);
  } catch (e) {
    if (e instanceof URIError) return seg;
    throw e;
  }
}

/** Forgejo answers 201 here. `browser_download_url` may only change an external asset. */
export const editAsset: Handler<EditAttachmentOptions> = async (c) => {
  const a = await assetOf(c, await releaseById(c));
  const b = c.body;
  if (b.name) a.name = attachmentName(b.name);
  if (b.browser_download_url) {
    if (!a.externalUrl) throw badRequest('existing attachment is not external');
    if (!isValidExternalUrl(b.browser_download_url)) throw badRequest(`invalid external URL: '${b.browser_download_url}'`);
    a.externalUrl = b.browser_download_url;
  }
  await c.em.flush();
  return json(201, toApiAttachment(c.config, a));
};

export const removeAsset: Handler = async (c) => {
  const a = await assetOf(c, await releaseById(c));
  await deleteAttachments(c, { id: a.id });
  return noContent();
};

/** This family's handlers; `routes.table.ts` names each `releases.<key>`. */
export const handlers = {
  list,
  create,
  get,
  edit,
  remove,
  getLatest,
  getByTag,
  removeByTag,
  listAssets,
  createAsset,
  getAsset,
  editAsset,
  removeAsset,
} satisfies Record<string, Handler<never, never>>;
