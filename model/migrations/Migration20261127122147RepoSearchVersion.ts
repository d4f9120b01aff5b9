import { Migration } from '@mikro-orm/migrations';

/**
 * The tables and columns whose changes can change which repositories `GET /repos/search` (and the
 * other repository lists, lib/repos/search.ts) match, and so its `X-Total-Count`: the conditions read
 * them, and test/model/repo-search-version.test.ts checks every table and column they read is here.
 */
const READ: Record<string, string[]> = {
  repository: [
    'id',
    'owner_id',
    'owner_name',
    'lower_name',
    'description',
    'is_private',
    'is_fork',
    'is_mirror',
    'is_template',
    'is_archived',
    'fork_id',
  ],
  user: ['id', 'visibility'],
  org_user: ['uid', 'org_id'],
  team: ['id', 'org_id', 'includes_all_repositories'],
  team_user: ['team_id', 'uid'],
  team_repo: ['team_id', 'repo_id'],
  collaboration: ['repo_id', 'user_id'],
  star: ['repo_id', 'uid'],
  repo_topic: ['repo_id', 'topic_id'],
  topic: ['id', 'name'],
};

/**
 * `repo_search_version.v` grows in every transaction that changes one of them, so a total
 * kept with the version it was counted at is still exact while the database shows that version. The
 * bump runs when the writer commits (deferred), holding the row's lock only from then to the commit's
 * end, and once per transaction (a row this transaction already wrote is left alone). Not a sequence:
 * its value moves before the writer commits, and a reader could keep a total of data it cannot yet see
 * under the new number.
 */
export class Migration20261127122147RepoSearchVersion extends Migration {
  override async up(): Promise<void> {
    this.addSql(
      'create table "repo_search_version" ("id" smallint not null, "v" bigint not null default 0, constraint "repo_search_version_pkey" primary key ("id"))',
    );
    this.addSql('insert into "repo_search_version" ("id", "v") values (1, 0)');
    this.addSql(`create function "repo_search_bump"() returns trigger language plpgsql as $$
begin
  update "repo_search_version" set "v" = "v" + 1 where "id" = 1 and xmin <> pg_current_xact_id()::xid;
  return null;
end $$`);
    for (const [table, columns] of Object.entries(READ)) {
      const cols = columns.map((c) => `"${c}"`);
      this.addSql(`create constraint trigger "repo_search_version_rows" after insert or delete on "${table}"
        deferrable initially deferred for each row execute function "repo_search_bump"()`);
      this.addSql(`create constraint trigger "repo_search_version_columns" after update of ${cols.join(', ')} on "${table}"
        deferrable initially deferred for each row
        when ((${cols.map((c) => `old.${c}`).join(', ')}) is distinct from (${cols.map((c) => `new.${c}`).join(', ')}))
        execute function "repo_search_bump"()`);
      this.addSql(
        `create trigger "repo_search_version_truncate" after truncate on "${table}" for each statement execute function "repo_search_bump"()`,
      );
    }
  }
}
