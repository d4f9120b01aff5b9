// Unadopted repositories (Forgejo's routers/api/v1/admin/adopt.go and services/repository/adopt.go):
// bare repositories `<root>/<owner>/<name>.git` that have no repository record. An admin lists them,
// adopts one (a private repository record for the files on disk) or deletes its files.
//
// As in Forgejo: the list skips directories of owners that do not exist and names that are not
// lower case or not usable repository names (so `<name>.wiki.git` never shows); adopting or deleting
// answers 404 when the owner, the directory is missing, or a record already has the name.
import fs from 'node:fs/promises';
import path from 'node:path';
import type { EntityManager } from '@mikro-orm/core';
import type { Handler } from '../lib/http/handler.ts';
import { json, noContent, signedIn } from '../lib/http/handler.ts';
import { insertRepository } from '../lib/repos/repos.ts';
import { checkRepoName } from '../lib/users/names.ts';
import { compileGlobOrLiteral } from '../lib/repos/glob.ts';
import { pageOf } from '../lib/http/paging.ts';
import { HttpError, notFound } from '../lib/http/errors.ts';
import { Repository } from '../model/repo.ts';
import { User, type IUser } from '../model/user.ts';
import { configureBare, deleteRepo, getHeadBranch, listRefs, objectFormatOf, repoSize, setHead } from '../git/repo.ts';
import type { RequestState } from '../lib/http/request.ts';
import type { QueryOf } from '../model/schemas/query.ts';

const usableRepoName = (name: string) => {
  try {
    checkRepoName(name);
    return true;
  } catch (e) {
    if (e instanceof HttpError) return false;
    throw e;
  }
};

/** Directory names under `dir`, sorted as Go's WalkDir visits them; none when `dir` is missing. */
async function subdirs(dir: string): Promise<string[]> {
  const entries = await fs.readdir(dir, { withFileTypes: true }).catch((e: NodeJS.ErrnoException) => {
    if (e.code === 'ENOENT') return [];
    throw e;
  });
  return entries
    .filter((e) => e.isDirectory())
    .map((e) => e.name)
    .sort((a, b) => (a < b ? -1 : a > b ? 1 : 0));
}

/**
 * `pattern` is `<owner glob>[/<repo glob>]` (gobwas globs; one that does not compile matches itself).
 * Forgejo's handler reads the parameter as `query` although its API description names it `pattern`:
 * both are accepted.
 */
function globsOf(q: QueryOf<'Unadopted'>): [RegExp, RegExp] {
  const pattern = q.pattern ?? q.query ?? '';
  if (!pattern) return [/^/, /^/];
  const [owner, repo] = pattern.split(/\/(.*)/s);
  return [compileGlobOrLiteral(owner), repo === undefined ? /^/ : compileGlobOrLiteral(repo)];
}

async function findUnadopted(em: EntityManager, root: string, q: QueryOf<'Unadopted'>): Promise<string[]> {
  const [ownerGlob, repoGlob] = globsOf(q);
  const out: string[] = [];
  for (const ownerDir of await subdirs(root)) {
    if (!ownerGlob.test(ownerDir)) continue;
    const names = (await subdirs(path.join(root, ownerDir)))
      .filter((d) => d.endsWith('.git'))
      .map((d) => d.slice(0, -4))
      .filter((n) => n === n.toLowerCase() && usableRepoName(n) && repoGlob.test(n));
    if (!names.length) continue;
    const owner = await em.findOne(User, { lowerName: ownerDir.toLowerCase() });
    if (!owner) continue;
    const known = new Set(
      (await em.find(Repository, { ownerId: owner.id, lowerName: { $in: names } }, { fields: ['lowerName'] })).map((r) => r.lowerName),
    );
    for (const n of names) if (!known.has(n)) out.push(`${ownerDir}/${n}`);
  }
  return out;
}

/** Forgejo pages the walk and sets X-Total-Count only. */
export const list: Handler<never, QueryOf<'Unadopted'>> = async (c) => {
  const p = pageOf(c);
  const all = await findUnadopted(c.em, c.config.repoRoot, c.q);
  return json(200, all.slice(p.offset, p.offset + p.limit), {
    'X-Total-Count': String(all.length),
    'Access-Control-Expose-Headers': 'X-Total-Count',
  });
};

const isDir = (p: string) =>
  fs.stat(p).then(
    (s) => s.isDirectory(),
    () => false,
  );

/** The owner and directory of `{username}/{reponame}` when they are unadopted files, else 404. */
async function unadopted(c: RequestState): Promise<{ owner: IUser; name: string; dir: string }> {
  const name = c.params.reponame ?? '';
  const owner = await c.em.findOne(User, { lowerName: (c.params.username ?? '').toLowerCase() });
  if (!owner) throw notFound();
  if ((await c.em.count(Repository, { ownerId: owner.id, lowerName: name.toLowerCase() })) > 0) throw notFound();
  // Before the file system is touched: `x.wiki` is a wiki's directory, and no name may leave the root.
  checkRepoName(name);
  const dir = c.services.repoPath(owner.name, name);
  if (!(await isDir(dir))) throw notFound();
  return { owner, name, dir };
}

/**
 * Forgejo's adoptRepository: the branch HEAD names if it exists, else the configured default
 * branch, `master`, `main` or the first branch, in that order; no branch at all is an empty
 * repository on the configured default.
 */
async function pickDefaultBranch(dir: string, configured: string): Promise<{ branch: string; empty: boolean }> {
  const branches = (await listRefs(dir, 'refs/heads/')).map((r) => r.name.slice('refs/heads/'.length));
  const head = await getHeadBranch(dir);
  if (head && branches.includes(head)) return { branch: head, empty: false };
  const pick = [configured, 'master', 'main'].find((b) => branches.includes(b)) ?? branches[0];
  return pick ? { branch: pick, empty: false } : { branch: configured, empty: true };
}

/** A private repository record for the files on disk (Forgejo adopts with IsPrivate). */
export const adopt = signedIn(async (c) => {
  const { owner, name, dir } = await unadopted(c);
  const { branch, empty } = await pickDefaultBranch(dir, c.config.REPOSITORY.DEFAULT_BRANCH);
  const repo = await insertRepository(c.em, c.config, owner, c.auth.doer, {
    name,
    private: true,
    defaultBranch: branch,
    objectFormat: await objectFormatOf(dir),
  });
  if ((await getHeadBranch(dir)) !== branch) await setHead(dir, branch);
  await configureBare(dir);
  repo.isEmpty = empty;
  repo.size = await repoSize(dir);
  await c.em.flush();
  return noContent();
});

export const remove: Handler = async (c) => {
  const { dir } = await unadopted(c);
  await deleteRepo(dir);
  return noContent();
};

/** This family's handlers; `routes.table.ts` names each `adminUnadopted.<key>`. */
export const handlers = {
  list,
  adopt,
  remove,
} satisfies Record<string, Handler<never, never>>;
