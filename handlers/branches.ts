// Branches: list, get, create, rename, delete (Forgejo routers/api/v1/repo/branch.go; forgejo-facts 6.9).
import { emitRefUpdates } from '../lib/transport/push-events.ts';
import { zeroOid } from '../git/oid.ts';
import type { Handler } from '../lib/http/handler.ts';
import { json, noContent, signedIn } from '../lib/http/handler.ts';
import type { CreateBranchRepoOption, UpdateBranchRepoOption } from '../model/schemas/index.ts';
import { getCommit, type Commit } from '../git/commits.ts';
import { lookupRef, readRef } from '../git/lookup.ts';
import { createBranchRef, deleteRef, listBranches, renameBranchRef } from '../git/refs.ts';
import { RefExistsError } from '../git/errors.ts';
import { CommitUsers, toPayloadCommit } from '../lib/repos/api/git.ts';
import { toApiBranch } from '../lib/repos/api/branch.ts';
import { ProtectedBranch, type IProtectedBranch } from '../model/branch-protection.ts';
import { Repository } from '../model/repo.ts';
import { managedOf } from '../model/raw.ts';
import { canUserMergeRule, canUserPushRule, firstMatch, loadBranchRules } from '../lib/repos/branch-rules.ts';
import { conflict, notFound, unprocessable } from '../lib/http/errors.ts';
import { pageOf, pagingHeaders } from '../lib/http/paging.ts';
import { EMPTY_REPO, gitCtx, gitWrite, httpErrorOf, pullRefresh, refreshAfterWrite, type GitCtx } from '../lib/repos/git.ts';
import { setHead } from '../git/repo.ts';
import { isGlobPattern } from '../lib/repos/glob.ts';
import type { RequestState } from '../lib/http/request.ts';

/** api.Branch for one branch head and the rule protecting it (if any). */
async function branchOf(s: RequestState, g: GitCtx, name: string, commit: Commit, rule: IProtectedBranch | null, users: CommitUsers) {
  const doer = s.auth.doer;
  const write = !!doer && g.perm.canWrite('code');
  const access = rule
    ? { push: await canUserPushRule(s.em, rule, g.perm, doer), merge: await canUserMergeRule(s.em, rule, g.perm, doer) }
    : { push: write, merge: write };
  return toApiBranch(name, toPayloadCommit(g.urls, commit, users), rule, access, g.perm.isAdmin());
}

async function branchJson(s: RequestState, g: GitCtx, name: string, oid: string) {
  const commit = await getCommit(g.path, oid);
  if (!commit) throw notFound();
  const users = new CommitUsers(s.em, s.config);
  await users.load([commit.author.email, commit.committer.email]);
  return branchOf(s, g, name, commit, firstMatch(await loadBranchRules(s.em, g.repo.id), name), users);
}

export const list: Handler = async (c) => {
  const g = gitCtx(c);
  const page = pageOf(c);
  // forgejo-facts 12.3: an empty repository lists `null`, with a total of 0.
  if (g.repo.isEmpty) return json(200, null, pagingHeaders(c, page, 0));
  const heads = await listBranches(g.path);
  const slice = heads.slice(page.offset, page.offset + page.limit);
  const commits = await Promise.all(slice.map((h) => getCommit(g.path, h.oid)));
  const users = new CommitUsers(c.em, c.config);
  await users.load(commits.flatMap((cm) => (cm ? [cm.author.email, cm.committer.email] : [])));
  const rules = await loadBranchRules(c.em, g.repo.id);
  const out = [];
  for (let i = 0; i < slice.length; i++) {
    const commit = commits[i];
    if (commit) out.push(await branchOf(c, g, slice[i].name, commit, firstMatch(rules, slice[i].name), users));
  }
  return json(200, out, pagingHeaders(c, page, heads.length));
};

export const get: Handler = async (c) => {
  const g = gitCtx(c);
  const name = c.params.path ?? '';
  const head = name === '' ? null : await readRef(g.path, 'heads', name);
  if (!head || head.type !== 'commit') throw notFound(`branch does not exist [name: ${name}]`);
  return json(200, await branchJson(c, g, name, head.oid));
};

export const create = signedIn<CreateBranchRepoOption>(async (c) => {
  const g = gitCtx(c);
  if (g.repo.isEmpty) throw notFound(EMPTY_REPO);
  const b = c.body;
  let from: string | null = null;
  if (b.old_ref_name) from = (await lookupRef(g.path, b.old_ref_name))?.commit ?? null;
  else if (b.old_branch_name) from = (await readRef(g.path, 'heads', b.old_branch_name, true))?.oid ?? null;
  else from = (await readRef(g.path, 'heads', g.repo.defaultBranch, true))?.oid ?? null;
  if (!from) throw notFound('The old branch does not exist');
  if (await readRef(g.path, 'tags', b.new_branch_name)) throw conflict('The branch with the same tag already exists.');
  try {
    await createBranchRef(g.path, b.new_branch_name, from);
  } catch (e) {
    if (e instanceof RefExistsError) throw conflict('The branch already exists.');
    throw httpErrorOf(e) ?? e;
  }
  await refreshAfterWrite(c.em, g.repo, g.path, [b.new_branch_name], pullRefresh(c));
  await emitRefUpdates(c.em, c, g.repo, c.auth.doer, g.path, [
    { ref: `refs/heads/${b.new_branch_name}`, before: zeroOid(from), after: from },
  ]);
  return json(201, await branchJson(c, g, b.new_branch_name, from));
});

export const edit = signedIn<UpdateBranchRepoOption>(async (c) => {
  const g = gitCtx(c);
  if (g.repo.isEmpty) throw notFound(EMPTY_REPO);
  const from = c.params.path ?? '';
  const to = c.body.name;
  const targetTaken = await readRef(g.path, 'heads', to);
  if (from === to || targetTaken)
    throw unprocessable('Cannot rename a branch using the same name or rename to a branch that already exists.');
  const head = from === '' ? null : await readRef(g.path, 'heads', from);
  if (!head) throw notFound("Branch doesn't exist.");
  await gitWrite(() => renameBranchRef(g.path, from, to, head.oid));
  // A plain-name rule follows its branch (Forgejo models/git/branch.go RenameBranch).
  const rule = await c.em.findOne(ProtectedBranch, { repoId: g.repo.id, ruleName: from });
  if (rule && !isGlobPattern(rule.ruleName)) rule.ruleName = to;
  if (g.repo.defaultBranch === from) {
    await setHead(g.path, to);
    managedOf(c.em, Repository, g.repo).defaultBranch = to;
  }
  await refreshAfterWrite(c.em, g.repo, g.path, [], pullRefresh(c));
  // Forgejo's RenameBranch notifies the old name's deletion and the new name's creation.
  await emitRefUpdates(c.em, c, g.repo, c.auth.doer, g.path, [
    { ref: `refs/heads/${from}`, before: head.oid, after: zeroOid(head.oid) },
    { ref: `refs/heads/${to}`, before: zeroOid(head.oid), after: head.oid },
  ]);
  return noContent();
});

export const remove = signedIn(async (c) => {
  const g = gitCtx(c);
  if (g.repo.isEmpty) throw notFound(EMPTY_REPO);
  const name = c.params.path ?? '';
  const head = name === '' ? null : await readRef(g.path, 'heads', name);
  if (!head) throw notFound(`branch does not exist [name: ${name}]`);
  await gitWrite(() => deleteRef(g.path, `refs/heads/${name}`, head.oid));
  await refreshAfterWrite(c.em, g.repo, g.path, [], pullRefresh(c));
  await emitRefUpdates(c.em, c, g.repo, c.auth.doer, g.path, [{ ref: `refs/heads/${name}`, before: head.oid, after: zeroOid(head.oid) }]);
  return noContent();
});

/** This family's handlers; `routes.table.ts` names each `branches.<key>`. */
export const handlers = {
  list,
  get,
  create,
  edit,
  remove,
} satisfies Record<string, Handler<never, never>>;
