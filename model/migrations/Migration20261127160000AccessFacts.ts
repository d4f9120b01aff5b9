import { Migration } from '@mikro-orm/migrations';

/**
 * One user's access facts on some repositories and their organizations (lib/auth/perm.ts), as a
 * function. Written as subqueries of the statement that needs them, the organization part (org_user,
 * team_user, team, team_repo, team_unit) made PostgreSQL lock five more tables and set up their plan
 * nodes on every execution, for every repository, even of a user, where it finds nothing: a third of
 * the cost of the statement that finds the caller's token and the addressed repository. In PL/pgSQL
 * each part is a statement of its own, planned once per connection and run only when it can find
 * something. The answer is `[collaborations, organizations, teams]`: collaborations as
 * `[repository id, mode]`, the organizations among `p_orgs` the user is a member of, and the user's
 * teams in them with the asked repositories each is linked to and its unit modes.
 */
export class Migration20261127160000AccessFacts extends Migration {
  override async up(): Promise<void> {
    this.addSql(`create function "cairn_access_facts"(p_user integer, p_repos integer[], p_orgs integer[]) returns json
  language plpgsql stable as $$
declare
  collabs json := '[]';
  members json := '[]';
  teams json := '[]';
begin
  if cardinality(p_repos) > 0 then
    collabs := to_json(array(select json_build_array(c.repo_id, c.mode) from collaboration c
      where c.user_id = p_user and c.repo_id = any(p_repos)));
  end if;
  if cardinality(p_orgs) > 0 then
    members := to_json(array(select ou.org_id from org_user ou where ou.uid = p_user and ou.org_id = any(p_orgs)));
    teams := to_json(array(select json_build_object(
        'org', m.org_id, 'mode', tm.access_mode, 'all', tm.includes_all_repositories,
        'repos', to_json(array(select tr.repo_id from team_repo tr where tr.team_id = tm.id and tr.repo_id = any(p_repos))),
        'units', to_json(array(select json_build_array(tu.type, tu.access_mode) from team_unit tu where tu.team_id = tm.id)))
      from team_user m join team tm on tm.id = m.team_id where m.uid = p_user and m.org_id = any(p_orgs)));
  end if;
  return json_build_array(collabs, members, teams);
end $$`);
  }
}
