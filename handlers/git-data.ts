// Git objects: single commits and their diff/patch, refs, trees, blobs, annotated tags and notes
// (Forgejo routers/api/v1/repo/{commits,git_ref,tree,blob,tag,notes}.go).
import type { Handler } from '../lib/http/handler.ts';
import { signedIn, json, noContent } from '../lib/http/handler.ts';
import type { SignedInCtx } from '../lib/http/handler.ts';
import type { NoteOptions } from '../model/schemas/index.ts';
import { readInfo, readObject } from '../git/cat-file.ts';
import { diffOrPatch, getCommit } from '../git/commits.ts';
import { runGit } from '../git/exec.ts';
import { lookupRef } from '../git/lookup.ts';
import { readNote, removeNote, setNote } from '../git/notes.ts';
import { isValidRefName } from '../git/refname.ts';
import { isOidPrefix } from '../git/oid.ts';
import { readTagObject } from '../git/tags.ts';
import { getTree } from '../git/trees.ts';
import { toCommitUser, toVerification, type RepoUrls } from '../lib/repos/api/git.ts';
import { badRequest, notFound, unprocessable } from '../lib/http/errors.ts';
import { gitCtx, gitWrite, identityOf, pullRefresh, refreshAfterWrite } from '../lib/repos/git.ts';
import { apiCommits, commitOptions, noteOptions } from './commits.ts';
import type { RequestState } from '../lib/http/request.ts';
import type { HandlerCtx } from '../lib/http/handler.ts';
import type { QueryOf } from '../model/schemas/query.ts';

const ref = (c: { params: Record<string, string> }, name: string) => c.params[name] ?? '';

export const getSingleCommit: Handler<never, QueryOf<'CommitFlags'>> = async (c) => {
  const g = gitCtx(c);
  const sha = ref(c, 'sha');
  if (!isValidRefName(sha)) throw unprocessable(`no valid ref or sha: ${sha}`);
  const found = g.repo.isEmpty ? null : await lookupRef(g.path, sha);
  if (!found?.commit) throw notFound(sha);
  const [commit] = await apiCommits(c, g.path, g.urls, [found.commit], commitOptions(c.q));
  return json(200, commit);
};

/** `.diff` / `.patch` of one commit, streamed from git. */
export const getCommitDiff: Handler = async (c) => {
  const g = gitCtx(c);
  const sha = ref(c, 'sha');
  const found = g.repo.isEmpty || !isValidRefName(sha) ? null : await lookupRef(g.path, sha);
  const stream = found?.commit ? await diffOrPatch(g.path, found.commit, c.params.diffType === 'patch' ? 'patch' : 'diff') : null;
  if (!stream) throw notFound(sha);
  return { status: 200, body: stream, type: 'text/plain; charset=utf-8' };
};

// --- refs ---------------------------------------------------------------------------------------

function toReference(urls: RepoUrls, name: string, type: string, oid: string) {
  const segs = name.split('/').map(encodeURIComponent).join('/');
  return { ref: name, url: `${urls.api}/git/${segs}`, object: { type, sha: oid, url: `${urls.api}/git/${type}s/${oid}` } };
}

async function refsWithPrefix(repoPath: string, prefix: string) {
  const { stdout } = await runGit(repoPath, ['for-each-ref', '--format=%(refname)%00%(objecttype)%00%(objectname)', 'refs/']);
  return stdout
    .toString('utf8')
    .split('\n')
    .filter((l) => l !== '')
    .map((l) => l.split('\0'))
    .filter(([name]) => name.startsWith(prefix));
}

/**
 * The refs whose full name starts with `refs/` + `given` (every ref when nothing is given), as the
 * documented list (Forgejo's getGitRefsInternal). Forgejo answers one object instead only when the
 * single ref found is named exactly `given`, as given: a full name always starts with `refs/`, and
 * the search prefixed another, so that cannot happen and `heads/main` answers a list of one.
 */
async function refsAnswer(c: RequestState, given: string) {
  const g = gitCtx(c);
  const refs = g.repo.isEmpty ? [] : await refsWithPrefix(g.path, given === '' ? '' : `refs/${given}`);
  if (refs.length === 0) throw notFound();
  const out = refs.map(([name = '', type = '', oid = '']) => toReference(g.urls, name, type, oid));
  if (out.length === 1 && out[0].ref === given) return json(200, out[0]);
  return json(200, out);
}

export const listRefs: Handler = (c) => refsAnswer(c, '');
export const getRefs: Handler = (c) => refsAnswer(c, c.params.path ?? '');

// --- trees and blobs ----------------------------------------------------------------------------

export const getGitTree: Handler<never, QueryOf<'Tree'>> = async (c) => {
  const g = gitCtx(c);
  const sha = ref(c, 'sha');
  const given = (n: number | undefined) => (n !== undefined && n >= 0 ? n : undefined);
  const perPage = Math.min(given(c.q.per_page) ?? c.config.API.DEFAULT_GIT_TREES_PER_PAGE, c.config.API.DEFAULT_GIT_TREES_PER_PAGE);
  const tree =
    !isValidRefName(sha) || g.repo.isEmpty
      ? null
      : await getTree(g.path, sha, { recursive: c.q.recursive === true, page: given(c.q.page), perPage });
  if (!tree) throw badRequest(`object does not exist [id: ${sha}, rel_path: ]`);
  const entryUrl = (type: string, oid: string) =>
    type === 'tree' ? `${g.urls.api}/git/trees/${oid}` : type === 'blob' ? `${g.urls.api}/git/blobs/${oid}` : '';
  return json(200, {
    sha: tree.sha,
    url: `${g.urls.api}/git/trees/${tree.sha}`,
    tree: tree.entries.map((e) => ({ path: e.path, mode: e.mode, type: e.type, size: e.size, sha: e.sha, url: entryUrl(e.type, e.sha) })),
    truncated: tree.truncated,
    page: tree.page,
    total_count: tree.total_count,
  });
};

async function blobJson(c: RequestState, sha: string) {
  const g = gitCtx(c);
  const info = isOidPrefix(sha) ? await readInfo(g.path, sha) : null;
  if (!info || info.type !== 'blob') throw badRequest(`object does not exist [id: ${sha}, rel_path: ]`);
  const big = info.size > c.config.API.DEFAULT_MAX_BLOB_SIZE;
  const content = big ? '' : ((await readObject(g.path, info.oid))?.content.toString('base64') ?? '');
  return { content, encoding: 'base64', url: `${g.urls.api}/git/blobs/${info.oid}`, sha: info.oid, size: info.size };
}

export const getBlob: Handler = async (c) => json(200, await blobJson(c, ref(c, 'sha')));

export const listBlobs: Handler<never, QueryOf<'Blobs'>> = async (c) => {
  const shas = (c.q.shas ?? '')
    .split(',')
    .map((s) => s.trim())
    .filter((s) => s !== '');
  if (shas.length === 0) throw badRequest('shas not provided');
  const out = [];
  for (const sha of shas.slice(0, c.config.API.MAX_RESPONSE_ITEMS)) out.push(await blobJson(c, sha));
  return json(200, out);
};

// --- annotated tags -----------------------------------------------------------------------------

export const getAnnotatedTag: Handler = async (c) => {
  const g = gitCtx(c);
  const sha = ref(c, 'sha');
  const info = isOidPrefix(sha) ? await readInfo(g.path, sha) : null;
  const tag = info?.type === 'tag' ? await readTagObject(g.path, info.oid) : null;
  const commitId = tag ? (await readInfo(g.path, `${tag.sha}^{commit}`))?.oid : undefined;
  const commit = commitId ? await getCommit(g.path, commitId) : null;
  if (!tag || !commit) throw badRequest(`object does not exist [id: ${sha}, rel_path: ]`);
  return json(200, {
    tag: tag.tag,
    sha: tag.sha,
    url: `${g.urls.api}/git/tags/${tag.sha}`,
    message: tag.message,
    tagger: tag.tagger ? toCommitUser(tag.tagger) : null,
    object: { type: 'commit', url: `${g.urls.api}/git/commits/${commit.sha}`, sha: commit.sha },
    verification: toVerification(commit),
    archive_download_count: { zip: 0, tar_gz: 0 },
  });
};

// --- notes --------------------------------------------------------------------------------------

async function noteTarget(c: RequestState): Promise<string> {
  const g = gitCtx(c);
  const sha = ref(c, 'sha');
  if (!isValidRefName(sha)) throw unprocessable(`no valid ref or sha: ${sha}`);
  const found = g.repo.isEmpty ? null : await lookupRef(g.path, sha);
  if (!found?.commit) throw notFound(`object does not exist [id: ${sha}, rel_path: ]`);
  return found.commit;
}

async function noteJson(c: HandlerCtx<unknown, QueryOf<'NoteFlags'>>, commitSha: string) {
  const g = gitCtx(c);
  const note = await readNote(g.path, commitSha);
  if (!note) throw notFound(ref(c, 'sha'));
  const [commit] = await apiCommits(c, g.path, g.urls, [note.notesCommit], noteOptions(c.q));
  return { message: note.message.toString('utf8'), commit };
}

export const getNote: Handler<never, QueryOf<'NoteFlags'>> = async (c) => json(200, await noteJson(c, await noteTarget(c)));

const doerIdentity = (c: SignedInCtx<unknown, unknown>) => identityOf(c.config, c.auth.doer);

export const createNote = signedIn<NoteOptions, QueryOf<'NoteFlags'>>(async (c) => {
  const g = gitCtx(c);
  const target = await noteTarget(c);
  const message = c.body.message ?? '';
  if (message.trim() === '') throw unprocessable('[Message]: Required');
  await gitWrite(() => setNote(g.path, target, message, doerIdentity(c)));
  await refreshAfterWrite(c.em, g.repo, g.path, [], pullRefresh(c));
  return json(200, await noteJson(c, target));
});

export const deleteNote = signedIn(async (c) => {
  const g = gitCtx(c);
  const target = await noteTarget(c);
  const removed = await gitWrite(() => removeNote(g.path, target, doerIdentity(c)));
  if (!removed) throw notFound(ref(c, 'sha'));
  await refreshAfterWrite(c.em, g.repo, g.path, [], pullRefresh(c));
  return noContent();
});

/** This family's handlers; `routes.table.ts` names each `gitData.<key>`. */
export const handlers = {
  getSingleCommit,
  getCommitDiff,
  listRefs,
  getRefs,
  getGitTree,
  listBlobs,
  getBlob,
  getAnnotatedTag,
  getNote,
  createNote,
  deleteNote,
} satisfies Record<string, Handler<never, never>>;
