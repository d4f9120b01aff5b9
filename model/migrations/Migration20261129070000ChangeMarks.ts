import { Migration } from '@mikro-orm/migrations';

/**
 * What each committed transaction changed, for kept answers (lib/http/answer-cache.ts,
 * model/db-clock.ts): `change_mark` holds one row per transaction id and scope it wrote. A scope is
 * `repo:<id>` (the rows of one repository that a kept answer of that repository reads), `user:<id>`,
 * or `*`: anything, which every kept answer depends on.
 *
 * Triggers write the marks, so no writer can forget one: every table has a row trigger (and a
 * truncate trigger marking `*`). The tables the frequent writes touch (a new issue or comment and
 * what goes with it) derive a narrow scope from the row; every other table marks `*`, so a change
 * of permissions, teams, tokens or users is seen by every kept answer. A table added later must get
 * a trigger of its own (test/model/change-marks.test.ts checks that every table has one).
 *
 * A mark is written once per transaction and scope (the primary key; `*` also remembers itself in a
 * transaction-local setting, so a bulk change of a `*` table costs one insert). The clock reads the
 * marks of the transactions that ended between two of its snapshots (the key leads with `x`), and
 * deletes those older than any snapshot a process may still compare with.
 */
const NARROW: Record<string, string> = {
  // A new issue or comment, its number, counters, feed rows, notifications, watches and webhook deliveries.
  issue: `perform "change_mark_put"('repo:' || r."repo_id") from (select new."repo_id" where tg_op <> 'DELETE' union select old."repo_id" where tg_op <> 'INSERT') r("repo_id")`,
  comment: `perform "change_mark_put"(coalesce((select 'repo:' || i."repo_id" from "issue" i where i."id" = r."issue_id"), '*')) from (select new."issue_id" where tg_op <> 'DELETE' union select old."issue_id" where tg_op <> 'INSERT') r("issue_id")`,
  issue_watch: `perform "change_mark_put"(coalesce((select 'repo:' || i."repo_id" from "issue" i where i."id" = r."issue_id"), '*')) from (select new."issue_id" where tg_op <> 'DELETE' union select old."issue_id" where tg_op <> 'INSERT') r("issue_id")`,
  repository: `perform "change_mark_put"('repo:' || r."id") from (select new."id" where tg_op <> 'DELETE' union select old."id" where tg_op <> 'INSERT') r("id")`,
  resource_index: `perform "change_mark_put"(case when r."kind" = 'issue' then 'repo:' || r."group_id" else '*' end) from (select new."kind", new."group_id" where tg_op <> 'DELETE' union select old."kind", old."group_id" where tg_op <> 'INSERT') r("kind", "group_id")`,
  action: `perform "change_mark_put"(coalesce('repo:' || r."repo_id", '*')) from (select new."repo_id" where tg_op <> 'DELETE' union select old."repo_id" where tg_op <> 'INSERT') r("repo_id")`,
  hook_task: `perform "change_mark_put"(case when r."repo_id" > 0 then 'repo:' || r."repo_id" else '*' end) from (select new."repo_id" where tg_op <> 'DELETE' union select old."repo_id" where tg_op <> 'INSERT') r("repo_id")`,
  // A token's use is stamped at most once a minute (lib/auth/auth.ts); no kept answer shows the stamp.
  // Anything else of a token (a new one, a revocation, its scopes) changes who may read what: `*`.
  access_token: `perform "change_mark_put"(case when tg_op = 'UPDATE' and to_jsonb(old) - 'updated_at' = to_jsonb(new) - 'updated_at' then 'token:' || new."id" else '*' end)`,
  notification: `perform "change_mark_put"(coalesce('user:' || r."user_id", '*')) from (select new."user_id" where tg_op <> 'DELETE' union select old."user_id" where tg_op <> 'INSERT') r("user_id")`,
};

export class Migration20261129070000ChangeMarks extends Migration {
  override async up(): Promise<void> {
    this.addSql(
      'create table "change_mark" ("x" xid8 not null, "scope" text not null, constraint "change_mark_pkey" primary key ("x", "scope"))',
    );
    this.addSql(`create function "change_mark_put"(s text) returns void language plpgsql as $$
begin
  if s = '*' then
    if current_setting('cairn.change_mark_all', true) = pg_current_xact_id()::text then return; end if;
    perform set_config('cairn.change_mark_all', pg_current_xact_id()::text, true);
  end if;
  insert into "change_mark" ("x", "scope") values (pg_current_xact_id(), s) on conflict do nothing;
end $$`);
    this.addSql(`create function "change_mark_all"() returns trigger language plpgsql as $$
begin
  perform "change_mark_put"('*');
  return null;
end $$`);
    for (const [table, body] of Object.entries(NARROW)) {
      this.addSql(`create function "change_mark_${table}"() returns trigger language plpgsql as $$
begin
  ${body};
  return null;
end $$`);
    }
    // Every table of the schema but the marks themselves (the migrations' bookkeeping too: a migration
    // another process ran marks `*`).
    const narrow = Object.keys(NARROW)
      .map((t) => `'${t}'`)
      .join(', ');
    this.addSql(`do $$
declare t text;
begin
  for t in select c.relname from pg_class c where c.relnamespace = current_schema()::regnamespace and c.relkind in ('r', 'p')
      and c.relname <> 'change_mark' loop
    execute format('create trigger "change_mark_rows" after insert or update or delete on %I for each row execute function %I()', t,
      case when t in (${narrow}) then 'change_mark_' || t else 'change_mark_all' end);
    execute format('create trigger "change_mark_truncate" after truncate on %I for each statement execute function "change_mark_all"()', t);
  end loop;
end $$`);
  }
}
