// Repository collaborators (forgejo-facts 8.3): add at write unless told otherwise, remove, list and
// look up; the users who may be assigned or asked for a review.
import type { Handler } from '../lib/http/handler.ts';
import { json, noContent } from '../lib/http/handler.ts';
import type { AddCollaboratorOption } from '../model/schemas/index.ts';
import { Collaboration } from '../model/repo.ts';
import { User, type IUser } from '../model/user.ts';
import { Mode, Unit, modeName, parseMode, userPermission } from '../lib/auth/perm.ts';
import { notFound, unprocessable } from '../lib/http/errors.ts';
import { pageOf, pagingHeaders } from '../lib/http/paging.ts';
import { OrgUser, Team, TeamRepo, TeamUnit, TeamUser } from '../model/org.ts';
import { Watch, WatchMode } from '../model/star.ts';
import { toApiUser } from '../lib/users/api/user.ts';
import { isSiteAdmin, need, type RequestState } from '../lib/http/request.ts';

async function collaborator(s: RequestState) {
  const name = s.params.collaborator ?? '';
  const user = await s.em.findOne(User, { lowerName: name.toLowerCase(), type: 0 });
  if (!user) throw unprocessable(`user does not exist [name: ${name}]`);
  return user;
}

export const put: Handler<AddCollaboratorOption> = async (c) => {
  const { repo } = need(c.repo, 'repo');
  const user = await collaborator(c);
  if (user.id === repo.ownerId) throw unprocessable('the repository owner cannot be added as a collaborator');
  if (!user.isActive) throw unprocessable(`user is not active [name: ${user.name}]`);
  const requested = parseMode(c.body.permission);
  const mode = requested >= Mode.read && requested <= Mode.admin ? requested : null;
  const existing = await c.em.findOne(Collaboration, { repoId: repo.id, userId: user.id });
  if (existing) {
    if (mode !== null) existing.mode = mode;
  } else c.em.create(Collaboration, { repoId: repo.id, userId: user.id, mode: mode ?? Mode.write });
  await c.em.flush();
  return noContent();
};

export const remove: Handler = async (c) => {
  const { repo } = need(c.repo, 'repo');
  const user = await collaborator(c);
  await c.em.nativeDelete(Collaboration, { repoId: repo.id, userId: user.id });
  return noContent();
};

// --- Listings and lookups ----------------------------------------------------------------------

const viewerOf = (s: RequestState) => ({ doer: s.auth.doer, siteAdmin: isSiteAdmin(s) });
const activeUsers = async (s: RequestState, ids: Iterable<number>): Promise<IUser[]> => {
  const list = [...new Set(ids)];
  return list.length ? s.em.find(User, { id: { $in: list }, isActive: true, type: 0 }, { orderBy: { lowerName: 'asc' } }) : [];
};

export const list: Handler = async (c) => {
  const { repo } = need(c.repo, 'repo');
  const p = pageOf(c);
  const [rows, total] = await c.em.findAndCount(
    Collaboration,
    { repoId: repo.id },
    { orderBy: { id: 'asc' }, limit: p.limit, offset: p.offset },
  );
  const users = rows.length ? await c.em.find(User, { id: { $in: rows.map((r) => r.userId) } }) : [];
  const ordered = rows.map((r) => users.find((u) => u.id === r.userId)).filter((u) => u !== undefined);
  return json(
    200,
    ordered.map((u) => toApiUser(c.config, u, viewerOf(c))),
    pagingHeaders(c, p, total),
  );
};

/** 204 when the user collaborates on the repository, 404 when not, 422 for an unknown user. */
export const get: Handler = async (c) => {
  const { repo } = need(c.repo, 'repo');
  const user = await collaborator(c);
  if ((await c.em.count(Collaboration, { repoId: repo.id, userId: user.id })) === 0) throw notFound();
  return noContent();
};

/** RepoCollaboratorPermission of any user (forgejo-facts 8.3); the mode a public repository gives everyone is read. */
export const permission: Handler = async (c) => {
  const { repo, owner } = need(c.repo, 'repo');
  const name = c.params.collaborator ?? '';
  const user = await c.em.findOne(User, { lowerName: name.toLowerCase() });
  if (!user) throw notFound('GetUserByName', [`user redirect does not exist [name: ${name.toLowerCase()}]`]);
  const perm = await userPermission(c.em, repo, owner, user);
  const best = Math.max(perm.mode, ...perm.units.values());
  const mode = modeName(best === Mode.none && !repo.isPrivate && perm.hasAnyAccess() ? Mode.read : best);
  return json(200, { permission: mode, role_name: mode, user: toApiUser(c.config, user, viewerOf(c)) });
};

/** Users who may be assigned: write access through a collaboration or a team, and an individual owner. */
export const assignees: Handler = async (c) => {
  const { repo, owner } = need(c.repo, 'repo');
  const collabs = await c.em.find(Collaboration, { repoId: repo.id, mode: { $gte: Mode.write } });
  const teamUsers = await teamMemberIds(c, repo.id, (mode, type) => mode >= Mode.write || (mode === Mode.read && type === Unit.pulls));
  const ids = new Set([...collabs.map((x) => x.userId), ...teamUsers]);
  const users = await activeUsers(c, ids);
  if (owner.type === 0 && !ids.has(owner.id)) users.push(owner);
  return json(
    200,
    users.map((u) => toApiUser(c.config, u, viewerOf(c))),
  );
};

/**
 * Users whose review may be requested (Forgejo's GetReviewers): anyone with read access; for a
 * public repository of a visible owner also its watchers and the owning organization's members.
 */
export const reviewers: Handler = async (c) => {
  const { repo, owner } = need(c.repo, 'repo');
  const collabs = await c.em.find(Collaboration, { repoId: repo.id });
  const ids = new Set([...collabs.map((x) => x.userId), ...(await teamMemberIds(c, repo.id, (mode) => mode >= Mode.read))]);
  if (repo.isPrivate || owner.visibility === 'private') {
    if (owner.type === 0) ids.add(owner.id);
  } else {
    for (const w of await c.em.find(Watch, { repoId: repo.id, mode: { $in: [WatchMode.normal, WatchMode.auto] } })) ids.add(w.userId);
    if (owner.type === 1) for (const m of await c.em.find(OrgUser, { orgId: owner.id })) ids.add(m.uid);
  }
  const users = await activeUsers(c, ids);
  return json(
    200,
    users.map((u) => toApiUser(c.config, u, viewerOf(c))),
  );
};

/** Members of teams linked to the repository with a unit mode `ok` accepts. */
async function teamMemberIds(s: RequestState, repoId: number, ok: (mode: number, type: number) => boolean): Promise<number[]> {
  const links = await s.em.find(TeamRepo, { repoId });
  if (links.length === 0) return [];
  const teamIds = links.map((l) => l.teamId);
  const teams = await s.em.find(Team, { id: { $in: teamIds } });
  const units = await s.em.find(TeamUnit, { teamId: { $in: teamIds } });
  const qualifying = teams.filter(
    (t) => (t.accessMode >= Mode.admin && ok(t.accessMode, 0)) || units.some((u) => u.teamId === t.id && ok(u.accessMode, u.type)),
  );
  if (qualifying.length === 0) return [];
  return (await s.em.find(TeamUser, { teamId: { $in: qualifying.map((t) => t.id) } })).map((m) => m.uid);
}

/** This family's handlers; `routes.table.ts` names each `collaborators.<key>`. */
export const handlers = {
  put,
  remove,
  list,
  get,
  permission,
  assignees,
  reviewers,
} satisfies Record<string, Handler<never, never>>;
