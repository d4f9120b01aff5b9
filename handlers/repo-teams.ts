// Teams of an organization's repository (Forgejo routers/api/v1/repo/teams.go).
import type { Handler } from '../lib/http/handler.ts';
import { json, noContent } from '../lib/http/handler.ts';
import { Team, TeamRepo, TeamUnit, type ITeam } from '../model/org.ts';
import { notFound, unprocessable } from '../lib/http/errors.ts';
import { toApiTeam } from '../lib/users/api/team.ts';
import { need, type RequestState } from '../lib/http/request.ts';

async function teamNamed(s: RequestState, orgId: number): Promise<ITeam> {
  const name = s.params.team ?? '';
  const team = await s.em.findOne(Team, { orgId, lowerName: name.toLowerCase() });
  if (!team) throw notFound('TeamNotExit', [`team does not exist [org_id: ${orgId}, team_id: 0, name: ${name}]`]);
  return team;
}

const linked = async (s: RequestState, teamId: number, repoId: number) => (await s.em.count(TeamRepo, { teamId, repoId })) > 0;

export const list: Handler = async (c) => {
  const { repo } = need(c.repo, 'repo');
  const links = await c.em.find(TeamRepo, { repoId: repo.id });
  const teams = links.length ? await c.em.find(Team, { id: { $in: links.map((l) => l.teamId) } }, { orderBy: { name: 'asc' } }) : [];
  const units = teams.length ? await c.em.find(TeamUnit, { teamId: { $in: teams.map((t) => t.id) } }) : [];
  return json(
    200,
    teams.map((t) => toApiTeam(c.config, t, units)),
  );
};

export const get: Handler = async (c) => {
  const { repo, owner } = need(c.repo, 'repo');
  const team = await teamNamed(c, owner.id);
  if (!(await linked(c, team.id, repo.id))) throw notFound();
  return json(200, toApiTeam(c.config, team, await c.em.find(TeamUnit, { teamId: team.id }), owner));
};

export const put: Handler = async (c) => {
  const { repo, owner } = need(c.repo, 'repo');
  const team = await teamNamed(c, owner.id);
  if (await linked(c, team.id, repo.id)) throw unprocessable(`team '${team.name}' is already added to repo`);
  c.em.create(TeamRepo, { teamId: team.id, orgId: owner.id, repoId: repo.id });
  await c.em.flush();
  return noContent();
};

export const remove: Handler = async (c) => {
  const { repo, owner } = need(c.repo, 'repo');
  const team = await teamNamed(c, owner.id);
  if (!(await linked(c, team.id, repo.id))) throw unprocessable(`team '${team.name}' was not added to repo`);
  await c.em.nativeDelete(TeamRepo, { teamId: team.id, repoId: repo.id });
  return noContent();
};

/** This family's handlers; `routes.table.ts` names each `repoTeams.<key>`. */
export const handlers = {
  list,
  get,
  put,
  remove,
} satisfies Record<string, Handler<never, never>>;
