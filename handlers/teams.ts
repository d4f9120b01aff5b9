// Teams (Forgejo's routers/api/v1/org/team.go; forgejo-facts 6.4): an organization's team list,
// creation and search, and /teams/{teamid} with its members and repositories.
import type { Handler, HandlerCtx } from '../lib/http/handler.ts';
import { json, noContent, signedIn } from '../lib/http/handler.ts';
import type { CreateTeamOption, EditTeamOption } from '../model/schemas/index.ts';
import { Team, TeamUser, type ITeam } from '../model/org.ts';
import { User } from '../model/user.ts';
import {
  addTeamMember,
  addTeamRepo,
  createTeam,
  deleteTeam,
  editTeam,
  hasTeamRepo,
  removeTeamMember,
  removeTeamRepo,
  teamRepos,
  teamUnitsOf,
} from '../lib/users/teams.ts';
import { repoPermission } from '../lib/auth/perm.ts';
import { pageOf, pagingHeaders, type Page } from '../lib/http/paging.ts';
import { notFound } from '../lib/http/errors.ts';
import { toApiTeam } from '../lib/users/api/team.ts';
import { toApiUser } from '../lib/users/api/user.ts';
import { repoJson } from '../lib/repos/api/repo-json.ts';
import { isSiteAdmin, need } from '../lib/http/request.ts';
import { teamFeed } from './activities.ts';
import type { QueryOf } from '../model/schemas/query.ts';

/** Team list JSON; `withOrg` fills `organization` as GET, create and /user/teams do. */
async function teamsJson(c: HandlerCtx<unknown>, teams: ITeam[], withOrg: boolean) {
  const units = await teamUnitsOf(c.em, teams);
  const orgs = withOrg ? await c.em.find(User, { id: { $in: [...new Set(teams.map((t) => t.orgId))] } }) : [];
  return teams.map((t) =>
    toApiTeam(
      c.config,
      t,
      units,
      orgs.find((o) => o.id === t.orgId),
    ),
  );
}

const page = <T>(rows: T[], p: Page) => rows.slice(p.offset, p.offset + p.limit);

export const listOfOrg: Handler = async (c) => {
  const p = pageOf(c);
  const [rows, total] = await c.em.findAndCount(
    Team,
    { orgId: need(c.org, 'org').id },
    { orderBy: { lowerName: 'asc' }, limit: p.limit, offset: p.offset },
  );
  return json(200, await teamsJson(c, rows, false), pagingHeaders(c, p, total));
};

/**
 * Forgejo's SearchTeam: `q` matches the name, and the description unless `include_desc=false`.
 * Only site admins search every team; anyone else searches the teams they belong to.
 */
export const search = signedIn<never, QueryOf<'TeamSearch'>>(async (c) => {
  const p = pageOf(c);
  const q = (c.q.q ?? '').trim().toLowerCase();
  const includeDesc = c.q.include_desc !== false;
  let teams = await c.em.find(Team, { orgId: need(c.org, 'org').id }, { orderBy: { lowerName: 'asc' } });
  if (!isSiteAdmin(c)) {
    const mine = new Set((await c.em.find(TeamUser, { uid: c.auth.doer.id })).map((m) => m.teamId));
    teams = teams.filter((t) => mine.has(t.id));
  }
  if (q) teams = teams.filter((t) => t.lowerName.includes(q) || (includeDesc && t.description.toLowerCase().includes(q)));
  return json(200, { ok: true, data: await teamsJson(c, page(teams, p), false) }, pagingHeaders(c, p, teams.length));
});

export const create: Handler<CreateTeamOption> = async (c) => {
  const org = need(c.org, 'org');
  const team = await createTeam(c.em, org, c.body);
  return json(201, (await teamsJson(c, [team], true))[0]);
};

/** The teams the caller belongs to, in every organization (GET /user/teams). */
export const listMine = signedIn(async (c) => {
  const p = pageOf(c);
  const ids = (await c.em.find(TeamUser, { uid: c.auth.doer.id })).map((m) => m.teamId);
  const [rows, total] = await c.em.findAndCount(
    Team,
    { id: { $in: ids } },
    { orderBy: { lowerName: 'asc' }, limit: p.limit, offset: p.offset },
  );
  return json(200, await teamsJson(c, rows, true), pagingHeaders(c, p, total));
});

export const get: Handler = async (c) => json(200, (await teamsJson(c, [need(c.team, 'team')], true))[0]);

export const edit: Handler<EditTeamOption> = async (c) => {
  const team = need(c.team, 'team');
  await editTeam(c.em, team, c.body);
  return json(200, (await teamsJson(c, [team], false))[0]);
};

export const remove: Handler = async (c) => {
  await deleteTeam(c.em, need(c.team, 'team'));
  return noContent();
};

export const listMembers: Handler = async (c) => {
  const p = pageOf(c);
  const team = need(c.team, 'team');
  const ids = (await c.em.find(TeamUser, { teamId: team.id })).map((m) => m.uid);
  const [rows, total] = await c.em.findAndCount(
    User,
    { id: { $in: ids } },
    { orderBy: { lowerName: 'asc' }, limit: p.limit, offset: p.offset },
  );
  const viewer = { doer: c.auth.doer, siteAdmin: isSiteAdmin(c) };
  return json(
    200,
    rows.map((u) => toApiUser(c.config, u, viewer)),
    pagingHeaders(c, p, total),
  );
};

export const getMember: Handler = async (c) => {
  const user = need(c.contextUser, 'user');
  if ((await c.em.count(TeamUser, { teamId: need(c.team, 'team').id, uid: user.id })) === 0) throw notFound();
  return json(200, toApiUser(c.config, user, { doer: c.auth.doer, siteAdmin: isSiteAdmin(c) }));
};

export const addMember: Handler = async (c) => {
  await addTeamMember(c.em, need(c.team, 'team'), need(c.contextUser, 'user'));
  return noContent();
};

export const removeMember: Handler = async (c) => {
  await removeTeamMember(c.em, need(c.team, 'team'), need(c.contextUser, 'user').id);
  return noContent();
};

/** The team's repositories the caller (and token) can reach, with the caller's permissions. */
export const listRepos: Handler = async (c) => {
  const p = pageOf(c);
  const org = need(c.org, 'org');
  const reachable = [];
  for (const repo of await teamRepos(c.em, need(c.team, 'team'))) {
    const perm = await repoPermission(c.em, { repo, owner: org, doer: c.auth.doer, siteAdmin: isSiteAdmin(c), token: c.auth.token });
    if (perm.hasAnyAccess()) reachable.push(repo);
  }
  const out = [];
  for (const repo of page(reachable, p)) out.push(await repoJson(c, repo, org));
  return json(200, out, pagingHeaders(c, p, reachable.length));
};

export const getRepo: Handler = async (c) => {
  const { repo, owner } = need(c.repo, 'repo');
  if (!(await hasTeamRepo(c.em, need(c.team, 'team'), repo))) throw notFound();
  return json(200, await repoJson(c, repo, owner));
};

export const addRepo: Handler = async (c) => {
  await addTeamRepo(c.em, need(c.team, 'team'), need(c.repo, 'repo').repo);
  return noContent();
};

export const removeRepo: Handler = async (c) => {
  await removeTeamRepo(c.em, need(c.team, 'team'), need(c.repo, 'repo').repo);
  return noContent();
};

export const activityFeeds: Handler<never, QueryOf<'Feeds'>> = async (c) => teamFeed(c);

/** This family's handlers; `routes.table.ts` names each `teams.<key>`. */
export const handlers = {
  listOfOrg,
  create,
  search,
  get,
  edit,
  remove,
  listMembers,
  getMember,
  addMember,
  removeMember,
  listRepos,
  getRepo,
  addRepo,
  removeRepo,
  activityFeeds,
  listMine,
} satisfies Record<string, Handler<never, never>>;
