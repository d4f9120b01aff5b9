// api.Repository as a caller sees it (repoJson), and a page of them with a fixed number of queries
// (reposJson): the converter every route that answers repositories uses (handlers, pull records).
import type { IRepository, IRepoUnit } from '../../../model/repo.ts';
import { Repository, RepoUnit } from '../../../model/repo.ts';
import { intArray, jsonList, plainRows, type Plain } from '../../../model/raw.ts';
import { readPrepared } from '../../../model/sql.ts';
import { RepoTransfer } from '../../../model/transfer.ts';
import { User, type IUser } from '../../../model/user.ts';
import { findRepoById, repoUnits } from '../repos.ts';
import { repoPermission, repoPermissions } from '../../auth/perm.ts';
import { transferJson, transfersJson } from '../transfer.ts';
import { isSiteAdmin, type RequestState } from '../../http/request.ts';
import { toApiRepo, type ApiRepo } from './repo.ts';

/** api.Repository as the caller sees it, with `parent` for forks and `repo_transfer` while one is pending. */
export async function repoJson(s: RequestState, repo: Plain<IRepository>, owner: Plain<IUser>): Promise<ApiRepo> {
  const viewer = { doer: s.auth.doer, siteAdmin: isSiteAdmin(s) };
  // A read may reuse what the loader read for the addressed repository; a write may have changed it.
  const loaded = (s.method === 'GET' || s.method === 'HEAD') && s.repo?.repo.id === repo.id && s.repo.units ? s.repo : null;
  const units = loaded?.units ?? (await repoUnits(s.em, repo.id));
  const perm =
    loaded?.perm ??
    (await repoPermission(
      s.em,
      { repo, owner, doer: s.auth.doer, siteAdmin: isSiteAdmin(s), token: s.auth.token },
      new Set(units.map((u) => u.type)),
    ));
  let parent: ApiRepo | null = null;
  if (repo.isFork && repo.forkId) {
    const { repo: base, owner: baseOwner, units: baseUnits } = await findRepoById(s.em, repo.forkId);
    // Forgejo shows the parent with the child's permissions (forgejo-facts 6.5).
    if (base && baseOwner) parent = toApiRepo(s.config, { repo: base, owner: baseOwner, units: baseUnits, perm }, viewer);
  }
  const pending = loaded?.transferPending === false ? null : await s.em.findOne(RepoTransfer, { repoId: repo.id });
  const transfer = pending ? await transferJson(s.em, s.config, pending, viewer) : null;
  return toApiRepo(s.config, { repo, owner, units, perm, parent, transfer }, viewer);
}

/**
 * Several repositories, as `repoJson` shows each, with a fixed number of queries for any number of
 * them (no query per listed repository): parents, pending transfers, owners (with the users
 * of the transfers), units and the caller's permissions are each read once for the whole list.
 */
export async function reposJson(s: RequestState, repos: Plain<IRepository>[]): Promise<ApiRepo[]> {
  if (repos.length === 0) return [];
  const viewer = { doer: s.auth.doer, siteAdmin: isSiteAdmin(s) };
  const unique = (ids: number[]) => [...new Set(ids)];
  // As in repoJson, a read reuses what the loader read for the addressed repository.
  const loaded = (s.method === 'GET' || s.method === 'HEAD') && s.repo?.units ? s.repo : null;
  const isLoaded = (id: number) => loaded?.repo.id === id;
  const parentIds = unique(repos.filter((r) => r.isFork && r.forkId).map((r) => r.forkId));
  const toRead = parentIds.filter((id) => !isLoaded(id));
  const maybePending = unique(repos.map((r) => r.id)).filter((id) => !(isLoaded(id) && loaded!.transferPending === false));
  const unitIds = unique([...repos.map((r) => r.id), ...toRead]).filter((id) => !isLoaded(id));
  // Parents, pending transfers, owners (with the users of the transfers) and units in one statement,
  // a named one on PostgreSQL (with the ids inlined, PostgreSQL parsed and planned it on
  // every listing, 1.3 to 1.8 ms of a search's page of 50); its text varies only with which parts are empty.
  const known = loaded ? [loaded.owner] : [];
  const none = `'[]'::json`;
  const pendingIds = intArray(maybePending);
  const [row] = await readPrepared<{ parents: unknown[]; pending: unknown[]; users: unknown[]; units: unknown[] }>(
    s.em,
    [Repository, RepoTransfer, User, RepoUnit],
    `select ${toRead.length ? jsonList(s.em, Repository, 'p', 'p.id = any(?::int[])') : none} as parents,
      ${maybePending.length ? jsonList(s.em, RepoTransfer, 't', 't.repo_id = any(?::int[])') : none} as pending,
      ${jsonList(
        s.em,
        User,
        'u',
        `(u.id = any(?::int[]) or u.id in (select p.owner_id from repository p where p.id = any(?::int[]))
        or u.id in (select t.doer_id from repo_transfer t where t.repo_id = any(?::int[]))
        or u.id in (select t.recipient_id from repo_transfer t where t.repo_id = any(?::int[]))) and not u.id = any(?::int[])`,
      )} as users,
      ${unitIds.length ? jsonList(s.em, RepoUnit, 'ru', 'ru.repo_id = any(?::int[])', 'type') : none} as units`,
    [
      ...(toRead.length ? [intArray(toRead)] : []),
      ...(maybePending.length ? [pendingIds] : []),
      intArray(repos.map((r) => r.ownerId)),
      intArray(toRead),
      pendingIds,
      pendingIds,
      intArray(known.map((u) => u.id)),
      ...(unitIds.length ? [intArray(unitIds)] : []),
    ],
  );
  const parents = [...(loaded && parentIds.some(isLoaded) ? [loaded.repo] : []), ...plainRows(s.em, Repository, row!.parents)];
  const pending = plainRows(s.em, RepoTransfer, row!.pending);
  const users = [...known, ...plainRows(s.em, User, row!.users)];
  const owners = new Map(users.map((o) => [o.id, o]));
  const units = new Map<number, IRepoUnit[]>();
  for (const u of plainRows(s.em, RepoUnit, row!.units)) {
    const list = units.get(u.repoId);
    if (list) list.push(u);
    else units.set(u.repoId, [u]);
  }
  if (loaded) units.set(loaded.repo.id, loaded.units!);
  const unitsOf = (id: number) => units.get(id) ?? [];
  const listed = repos.flatMap((repo) => {
    const owner = owners.get(repo.ownerId);
    return owner ? [{ repo, owner, enabled: new Set(unitsOf(repo.id).map((u) => u.type)) }] : [];
  });
  const ask = listed.filter((l) => !isLoaded(l.repo.id));
  const asked = await repoPermissions(s.em, { doer: s.auth.doer, siteAdmin: isSiteAdmin(s), token: s.auth.token }, ask);
  const perms = new Map(ask.map((l, i) => [l.repo.id, asked[i]!]));
  if (loaded) perms.set(loaded.repo.id, loaded.perm);
  const transfers = new Map((await transfersJson(s.em, s.config, pending, viewer, users)).map((t, i) => [pending[i]!.repoId, t]));
  return listed.map(({ repo, owner }) => {
    const perm = perms.get(repo.id)!;
    const base = repo.isFork && repo.forkId ? parents.find((p) => p.id === repo.forkId) : undefined;
    const baseOwner = base && owners.get(base.ownerId);
    // Forgejo shows the parent with the child's permissions (forgejo-facts 6.5).
    const parent = base && baseOwner ? toApiRepo(s.config, { repo: base, owner: baseOwner, units: unitsOf(base.id), perm }, viewer) : null;
    return toApiRepo(s.config, { repo, owner, units: unitsOf(repo.id), perm, parent, transfer: transfers.get(repo.id) ?? null }, viewer);
  });
}
