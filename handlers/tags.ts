// Tags: list, get, create (lightweight or annotated), delete (Forgejo routers/api/v1/repo/tag.go,
// services/convert ToTag).
import { emitRefUpdates } from '../lib/transport/push-events.ts';
import { zeroOid } from '../git/oid.ts';
import { Release } from '../model/release.ts';
import type { Handler } from '../lib/http/handler.ts';
import { json, noContent, signedIn } from '../lib/http/handler.ts';
import type { CreateTagOption } from '../model/schemas/index.ts';
import { lookupRef, readRef } from '../git/lookup.ts';
import { createAnnotatedTag, createLightweightTag, deleteRef } from '../git/refs.ts';
import { RefExistsError } from '../git/errors.ts';
import { listTags, tagInfo, type TagInfo } from '../git/tags.ts';
import { conflict, notFound } from '../lib/http/errors.ts';
import { pageOf, pagingHeaders } from '../lib/http/paging.ts';
import { gitCtx, gitWrite, httpErrorOf, identityOf, refreshAfterWrite } from '../lib/repos/git.ts';
import { toApiTag } from '../lib/repos/api/git.ts';

export const list: Handler = async (c) => {
  const g = gitCtx(c);
  const page = pageOf(c);
  const refs = g.repo.isEmpty ? [] : await listTags(g.path);
  const infos = await Promise.all(refs.slice(page.offset, page.offset + page.limit).map((r) => tagInfo(g.path, r.name, r.oid)));
  const out = infos.flatMap((t) => (t ? [toApiTag(g.urls, t)] : []));
  return json(200, out, pagingHeaders(c, page, refs.length));
};

async function tagByName(path: string, name: string): Promise<TagInfo> {
  const ref = name === '' ? null : await readRef(path, 'tags', name);
  const info = ref && (await tagInfo(path, name, ref.oid));
  if (!info) throw notFound(name);
  return info;
}

export const get: Handler = async (c) => {
  const g = gitCtx(c);
  return json(200, toApiTag(g.urls, await tagByName(g.path, c.params.path ?? '')));
};

export const create = signedIn<CreateTagOption>(async (c) => {
  const g = gitCtx(c);
  const b = c.body;
  const target = b.target || g.repo.defaultBranch;
  const commit = g.repo.isEmpty ? null : (await lookupRef(g.path, target))?.commit;
  if (!commit) throw notFound(`target not found: object does not exist [id: ${target}, rel_path: ]`);
  if (await readRef(g.path, 'tags', b.tag_name)) throw conflict(`tag already exists [name: ${b.tag_name}]`);
  const doer = c.auth.doer;
  try {
    if (b.message) {
      await createAnnotatedTag(g.path, b.tag_name, commit, b.message, identityOf(c.config, doer));
    } else {
      await createLightweightTag(g.path, b.tag_name, commit);
    }
  } catch (e) {
    if (e instanceof RefExistsError) throw conflict(`tag already exists [name: ${b.tag_name}]`);
    throw httpErrorOf(e) ?? e;
  }
  await refreshAfterWrite(c.em, g.repo, g.path);
  const created = (await readRef(g.path, 'tags', b.tag_name))!.oid;
  await emitRefUpdates(c.em, c, g.repo, doer, g.path, [{ ref: `refs/tags/${b.tag_name}`, before: zeroOid(created), after: created }]);
  return json(201, toApiTag(g.urls, await tagByName(g.path, b.tag_name)));
});

export const remove = signedIn(async (c) => {
  const g = gitCtx(c);
  const name = c.params.path ?? '';
  const ref = name === '' ? null : await readRef(g.path, 'tags', name);
  if (!ref) throw notFound();
  // Forgejo's DeleteTag: the tag of a release goes with the release (DELETE releases/tags/{tag}) first.
  if (await c.em.count(Release, { repoId: g.repo.id, lowerTagName: name.toLowerCase(), isTag: false })) {
    throw conflict('a tag attached to a release cannot be deleted directly');
  }
  await gitWrite(() => deleteRef(g.path, `refs/tags/${name}`, ref.oid));
  await refreshAfterWrite(c.em, g.repo, g.path);
  await emitRefUpdates(c.em, c, g.repo, c.auth.doer, g.path, [{ ref: `refs/tags/${name}`, before: ref.oid, after: zeroOid(ref.oid) }]);
  return noContent();
});

/** This family's handlers; `routes.table.ts` names each `tags.<key>`. */
export const handlers = {
  list,
  get,
  create,
  remove,
} satisfies Record<string, Handler<never, never>>;
