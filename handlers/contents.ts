// Contents: read a path, create/update/delete one file, change several files in one commit, and
// apply a diff (Forgejo routers/api/v1/repo/{file,patch}.go, services/repository/files/update.go;
// forgejo-facts 6.11, 12.3, 12.5). Every write is one plumbing commit and a compare-and-swap of the
// branch (git/write.ts), so a concurrent writer gets 409, never a corrupted branch.
import { emitRefUpdates } from '../lib/transport/push-events.ts';
import { zeroOid } from '../git/oid.ts';
import type { Handler, SignedInCtx } from '../lib/http/handler.ts';
import { json, signedIn } from '../lib/http/handler.ts';
import type {
  ApplyDiffPatchFileOptions,
  ChangeFilesOptions,
  CreateFileOptions,
  DeleteFileOptions,
  UpdateFileOptions,
} from '../model/schemas/index.ts';
import { getCommit } from '../git/commits.ts';
import { applyPatch } from '../git/apply.ts';
import { entryAt, lookupRef, readRef } from '../git/lookup.ts';
import { InvalidPathError, ShaMismatchError } from '../git/errors.ts';
import { validatePath } from '../git/paths.ts';
import { commitFiles, type FileOp } from '../git/write.ts';
import type { Identity } from '../git/identity.ts';
import { toFileCommit, toVerification } from '../lib/repos/api/git.ts';
import { badRequest, conflict, HttpError, notFound, unprocessable } from '../lib/http/errors.ts';
import { contentsOf, contentsOrList } from '../lib/repos/contents.ts';
import { gitCtx, httpErrorOf, identityOf, pullRefresh, refreshAfterWrite, type GitCtx } from '../lib/repos/git.ts';
import type { RequestState } from '../lib/http/request.ts';
import { refQuery } from '../lib/http/query-params.ts';

// --- reading ------------------------------------------------------------------------------------

function checkedPath(p: string): string {
  const trimmed = p.replace(/\/+$/, '');
  if (trimmed === '') return '';
  try {
    validatePath(trimmed);
  } catch (e) {
    if (e instanceof InvalidPathError) throw unprocessable(`path contains a malformed path component [path: ${p}]`);
    throw e;
  }
  return trimmed;
}

export const get: Handler = async (c) => {
  const g = gitCtx(c);
  // forgejo-facts 12.3: an empty repository has no contents at any path.
  if (g.repo.isEmpty) return json(200, []);
  const p = checkedPath(c.params.path ?? '');
  const name = (refQuery(c) ?? '').trim() || g.repo.defaultBranch;
  const resolved = await lookupRef(g.path, name);
  if (!resolved?.commit) throw notFound('GetContentsOrList', [`object does not exist [id: ${name}, rel_path: ]`]);
  const out = await contentsOrList(c.config, g.path, g.urls, { name, resolved }, p);
  if (!out) throw notFound('GetContentsOrList', [`object does not exist [id: ${resolved.commit}, rel_path: ${p}]`]);
  return json(200, out);
};

// --- writing ------------------------------------------------------------------------------------

interface Change {
  operation: 'create' | 'update' | 'delete';
  path: string;
  fromPath?: string;
  content?: Buffer;
  sha?: string;
}

interface WriteOptions {
  branch?: string;
  new_branch?: string;
  force_overwrite_new_branch?: boolean;
  message?: string;
  author?: { name?: string; email?: string };
  committer?: { name?: string; email?: string };
  dates?: { author?: string; committer?: string };
  signoff?: boolean;
}

function decodeBase64(s: string): Buffer {
  const clean = s.replace(/[\r\n]/g, '');
  if (clean.length % 4 !== 0 || !/^[A-Za-z0-9+/]*={0,2}$/.test(clean)) throw unprocessable('illegal base64 data at input byte 0');
  return Buffer.from(clean, 'base64');
}

/** RFC 3339 with its offset kept as git's `+hhmm`. */
function parseDate(value: string | undefined, field: string): { date: Date; tz: string } | undefined {
  if (value === undefined || value === '') return undefined;
  const m = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(?:\.\d+)?(Z|([+-])(\d{2}):(\d{2}))$/.exec(value);
  const date = new Date(value);
  if (!m || Number.isNaN(date.getTime())) throw unprocessable(`[Dates.${field}]: Invalid`);
  return { date, tz: m[1] === 'Z' ? '+0000' : `${m[2]}${m[3]}${m[4]}` };
}

/** Forgejo GetAuthorAndCommitterUsers: either identity stands for the other, the doer for both. */
function identities(c: SignedInCtx, o: WriteOptions): { author: Identity; committer: Identity } {
  const doer = c.auth.doer;
  const self = identityOf(c.config, doer);
  const pick = (who: { name?: string; email?: string } | undefined): Identity | null => {
    if (!who?.email) return null;
    if (who.email.toLowerCase() === doer.email.toLowerCase()) return { name: who.name || self.name, email: self.email };
    return { name: who.name || who.email.split('@')[0], email: who.email };
  };
  let author = pick(o.author);
  let committer = pick(o.committer);
  author ??= committer ?? self;
  committer ??= author;
  const ad = parseDate(o.dates?.author, 'Author');
  const cd = parseDate(o.dates?.committer, 'Committer');
  const now = new Date();
  return {
    author: { ...author, date: ad?.date ?? now, tz: ad?.tz ?? '+0000' },
    committer: { ...committer, date: cd?.date ?? now, tz: cd?.tz ?? '+0000' },
  };
}

/** Forgejo's default message: `Add a, b` / `Update c` / `Delete d`, one line each. */
function defaultMessage(changes: Change[]): string {
  const of = (op: Change['operation']) =>
    changes
      .filter((x) => x.operation === op)
      .map((x) => x.path)
      .join(', ');
  const lines: string[] = [];
  if (of('create')) lines.push(`Add ${of('create')}`);
  if (of('update')) lines.push(`Update ${of('update')}`);
  if (of('delete')) lines.push(`Delete ${of('delete')}`);
  return lines.join('\n');
}

interface WriteResult {
  commit: NonNullable<Awaited<ReturnType<typeof getCommit>>>;
  branch: string;
  paths: string[];
}

/** Forgejo ChangeRepoFiles as one commit onto `branch` (or a new branch made from it). */
async function writeChanges(
  c: SignedInCtx,
  g: GitCtx,
  o: WriteOptions,
  changes: Change[],
  mapErrors: (e: unknown) => HttpError | null = httpErrorOf,
): Promise<WriteResult> {
  const oldBranch = o.branch || g.repo.defaultBranch;
  const newBranch = o.new_branch || oldBranch;
  for (const ch of changes) {
    ch.path = checkedPath(ch.path);
    if (ch.path === '') throw unprocessable('path contains a malformed path component [path: ]');
    if (ch.fromPath !== undefined && ch.fromPath !== '') ch.fromPath = checkedPath(ch.fromPath);
  }
  const oldHead = (await readRef(g.path, 'heads', oldBranch))?.oid ?? null;
  if (!oldHead && (!g.repo.isEmpty || changes.some((ch) => ch.operation === 'delete')))
    throw notFound(`branch does not exist [name: ${oldBranch}]`);
  let expectedOld = oldHead;
  if (newBranch !== oldBranch) {
    const existing = (await readRef(g.path, 'heads', newBranch))?.oid ?? null;
    if (existing && !o.force_overwrite_new_branch) throw unprocessable(`branch already exists [name: ${newBranch}]`);
    expectedOld = existing;
  }
  const ops: FileOp[] = changes.map((ch) => {
    // Without a sha the caller has not said which version it changes; only a new branch may skip it.
    if (ch.operation !== 'create' && !ch.sha && newBranch === oldBranch)
      throw unprocessable('a SHA or commit ID must be proved when updating a file');
    const sha = ch.sha || undefined;
    if (ch.operation === 'create') return { op: 'create', path: ch.path, content: ch.content ?? Buffer.alloc(0) };
    if (ch.operation === 'delete') return { op: 'delete', path: ch.path, sha };
    if (ch.fromPath && ch.fromPath !== ch.path)
      return { op: 'move', path: ch.path, fromPath: ch.fromPath, content: ch.content ?? Buffer.alloc(0), sha };
    return { op: 'update', path: ch.path, content: ch.content ?? Buffer.alloc(0), sha };
  });
  const { author, committer } = identities(c, o);
  let message = (o.message ?? '').trim() || defaultMessage(changes);
  if (o.signoff) message += `\n\nSigned-off-by: ${committer.name} <${committer.email}>`;
  let commitSha: string;
  try {
    ({ commitSha } = await commitFiles(g.path, { branch: newBranch, parent: oldHead, expectedOld, ops, message, author, committer }));
  } catch (e) {
    throw mapErrors(e) ?? e;
  }
  await refreshAfterWrite(c.em, g.repo, g.path, [newBranch], pullRefresh(c));
  await emitRefUpdates(c.em, c, g.repo, c.auth.doer, g.path, [
    { ref: `refs/heads/${newBranch}`, before: expectedOld ?? zeroOid(commitSha), after: commitSha },
  ]);
  const commit = await getCommit(g.path, commitSha);
  if (!commit) throw new Error(`commit ${commitSha} vanished after it was written`);
  return { commit, branch: newBranch, paths: changes.map((ch) => ch.path) };
}

/** FilesResponse: the written paths as they are now on the branch (null once deleted), the commit, its verification. */
async function filesResponse(c: RequestState, g: GitCtx, r: WriteResult) {
  const resolved = { kind: 'branch' as const, ref: `refs/heads/${r.branch}`, oid: r.commit.sha, commit: r.commit.sha };
  const files = [];
  for (const p of r.paths) {
    const entry = await entryAt(g.path, r.commit.sha, p);
    files.push(entry ? await contentsOf(c.config, g.path, g.urls, { name: r.branch, resolved }, entry, true) : null);
  }
  return { files, commit: toFileCommit(g.urls, r.commit), verification: toVerification(r.commit) };
}

async function fileResponse(c: RequestState, g: GitCtx, r: WriteResult) {
  const all = await filesResponse(c, g, r);
  return { content: all.files[0] ?? null, commit: all.commit, verification: all.verification };
}

export const changeFiles = signedIn<ChangeFilesOptions>(async (c) => {
  const g = gitCtx(c);
  const changes: Change[] = c.body.files.map((f) => ({
    operation: f.operation,
    path: f.path,
    fromPath: f.from_path,
    content: f.operation === 'delete' ? undefined : decodeBase64(f.content ?? ''),
    sha: f.sha,
  }));
  return json(201, await filesResponse(c, g, await writeChanges(c, g, c.body, changes)));
});

export const createFile = signedIn<CreateFileOptions>(async (c) => {
  const g = gitCtx(c);
  const change: Change = { operation: 'create', path: c.params.path ?? '', content: decodeBase64(c.body.content) };
  return json(201, await fileResponse(c, g, await writeChanges(c, g, c.body, [change])));
});

export const updateFile = signedIn<UpdateFileOptions>(async (c) => {
  const g = gitCtx(c);
  if (g.repo.isEmpty) throw unprocessable('repo is empty');
  const change: Change = {
    operation: 'update',
    path: c.params.path ?? '',
    fromPath: c.body.from_path,
    content: decodeBase64(c.body.content),
    sha: c.body.sha,
  };
  return json(200, await fileResponse(c, g, await writeChanges(c, g, c.body, [change])));
});

/** Forgejo answers a stale sha on DELETE with 400, not 409. */
const deleteErrors = (e: unknown) =>
  e instanceof ShaMismatchError ? badRequest(`sha does not match [given: ${e.expected}, expected: ${e.actual}]`) : httpErrorOf(e);

export const deleteFile = signedIn<DeleteFileOptions>(async (c) => {
  const g = gitCtx(c);
  const change: Change = { operation: 'delete', path: c.params.path ?? '', sha: c.body.sha };
  const r = await writeChanges(c, g, c.body, [change], deleteErrors);
  return json(200, await fileResponse(c, g, r));
});

/** POST {R}/diffpatch: the patch is applied to the branch head, which `sha` must name (409 otherwise). */
export const diffPatch = signedIn<ApplyDiffPatchFileOptions>(async (c) => {
  const g = gitCtx(c);
  const b = c.body;
  const oldBranch = b.branch || g.repo.defaultBranch;
  const newBranch = b.new_branch || oldBranch;
  const head = g.repo.isEmpty ? null : (await readRef(g.path, 'heads', oldBranch))?.oid;
  if (!head) throw notFound(`branch does not exist [name: ${oldBranch}]`);
  const given = await lookupRef(g.path, b.sha);
  if (!given?.commit || given.commit !== head) throw conflict(`file CommitID does not match [given: ${b.sha}, expected: ${head}]`);
  let expectedOld: string | null = head;
  if (newBranch !== oldBranch) {
    const existing = (await readRef(g.path, 'heads', newBranch))?.oid ?? null;
    if (existing && !b.force_overwrite_new_branch) throw unprocessable(`branch already exists [name: ${newBranch}]`);
    expectedOld = existing;
  }
  const { author, committer } = identities(c, b);
  let message = (b.message ?? '').trim() || 'apply-patch';
  if (b.signoff) message += `\n\nSigned-off-by: ${committer.name} <${committer.email}>`;
  let commitSha: string;
  try {
    ({ commitSha } = await applyPatch(g.path, {
      branch: newBranch,
      parent: head,
      expectedOld,
      patch: b.content,
      message,
      author,
      committer,
    }));
  } catch (e) {
    throw httpErrorOf(e) ?? e;
  }
  await refreshAfterWrite(c.em, g.repo, g.path, [newBranch], pullRefresh(c));
  await emitRefUpdates(c.em, c, g.repo, c.auth.doer, g.path, [
    { ref: `refs/heads/${newBranch}`, before: expectedOld ?? zeroOid(commitSha), after: commitSha },
  ]);
  const commit = await getCommit(g.path, commitSha);
  if (!commit) throw new Error(`commit ${commitSha} vanished after it was written`);
  return json(200, { content: null, commit: toFileCommit(g.urls, commit), verification: toVerification(commit) });
});

/** This family's handlers; `routes.table.ts` names each `contents.<key>`. */
export const handlers = {
  get,
  contentsGet: get,
  changeFiles,
  createFile,
  updateFile,
  deleteFile,
  diffPatch,
} satisfies Record<string, Handler<never, never>>;
