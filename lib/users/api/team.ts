// api.Team wire shape (forgejo-facts 6.4; Forgejo's convert.ToTeams).
import type { Config } from '../../../config.ts';
import type { ITeam, ITeamUnit } from '../../../model/org.ts';
import type { IUser } from '../../../model/user.ts';
import { Mode, UNIT_NAMES, modeName, unitKey } from '../../auth/perm.ts';
import { toApiOrg } from './user.ts';
import type { Team, Wire } from '../../../model/schemas/index.ts';

export type ApiTeam = Wire<Team>;

/**
 * `org` is given where Forgejo fills `organization` (GET team, create, /user/teams) and omitted
 * where it sends null (org team lists, search, PATCH). Admin and owner teams list every unit at
 * their own mode; other teams list their unit rows.
 */
export function toApiTeam(cfg: Config, t: ITeam, units: ITeamUnit[], org?: IUser): ApiTeam {
  const all = t.accessMode >= Mode.admin;
  const rows = units.filter((u) => u.teamId === t.id && u.type >= 1 && u.type <= UNIT_NAMES.length).sort((a, b) => a.id - b.id);
  return {
    id: t.id,
    name: t.name,
    description: t.description,
    organization: org ? toApiOrg(cfg, org) : null,
    includes_all_repositories: t.includesAllRepositories,
    permission: modeName(t.accessMode),
    units: all ? UNIT_NAMES.map((_, i) => unitKey(i + 1)) : rows.map((u) => unitKey(u.type)),
    units_map: Object.fromEntries(
      all ? UNIT_NAMES.map((_, i) => [unitKey(i + 1), modeName(t.accessMode)]) : rows.map((u) => [unitKey(u.type), modeName(u.accessMode)]),
    ),
    can_create_org_repo: t.canCreateOrgRepo,
  };
}
