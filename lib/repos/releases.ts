// Writing a release (Forgejo's services/release): a published release gets its git tag (created when
// missing, as a lightweight tag on its target, honouring tag protections), its event, and the repository's
// `num_releases` recounted in SQL; a draft touches no git data. Deleting a release keeps its tag.
import { UniqueConstraintViolationException, type EntityManager } from '@mikro-orm/core';
import type { IRelease } from '../../model/release.ts';
import type { IRepository } from '../../model/repo.ts';
import { lookupRef, readRef } from '../../git/lookup.ts';
import { createLightweightTag, deleteRef } from '../../git/refs.ts';
import { countCommits } from '../../git/commits.ts';
import { zeroOid } from '../../git/oid.ts';
import type { SignedInCtx } from '../http/handler.ts';
import { conflict, notFound, unprocessable } from '../http/errors.ts';
import { lockCounterRows } from '../db/counters.ts';
import { sql, writeSql } from '../../model/sql.ts';
import { emitEvent } from '../activity/index.ts';
import { emitRefUpdates } from '../transport/index.ts';
import { deleteAttachments } from '../attachments/index.ts';
import { gitWrite, refreshAfterWrite, type GitCtx } from './git.ts';
import { canControlTag } from './branch-rules.ts';

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

/**
 * For a published release: create its tag when missing (a protected tag only for users the rule allows,
 * as TAG_CONTROL answers for POST /tags) and record the tagged commit and its commit count. Returns the
 * id of a tag it created, so a failed insert can take it back.
 */
async function ensureTag(c: SignedInCtx, g: GitCtx, rel: IRelease): Promise<string | null> {
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

/**
 * Saves a release the caller filled in: its tag first when published, then the row and the count; a
 * published release's event says `action` (a draft has none).
 */
export async function saveRelease(c: SignedInCtx, g: GitCtx, rel: IRelease, action: 'published' | 'updated'): Promise<void> {
  await save(c, g, rel, await ensureTag(c, g, rel));
  if (!rel.isDraft) await emitEvent(c.em, c, { name: 'release', repo: g.repo, sender: c.auth.doer, action, release: rel });
}

/** The release row and its assets go; the git tag stays. */
export async function deleteRelease(c: SignedInCtx, repo: IRepository, rel: IRelease): Promise<void> {
  await emitEvent(c.em, c, { name: 'release', repo, sender: c.auth.doer, action: 'deleted', release: rel });
  c.em.remove(rel);
  await deleteAttachments(c, { releaseId: rel.id });
  await recountReleases(c.em, rel.repoId);
}
