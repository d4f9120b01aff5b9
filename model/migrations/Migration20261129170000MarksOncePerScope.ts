import { Migration } from '@mikro-orm/migrations';

/**
 * The change-mark triggers of migration ChangeMarks, cheaper: a new issue fires five of them, all inside
 * the lock on the repository's issue number, and they cost about a sixth of the write's PostgreSQL time.
 *
 * - `change_mark(scope)` inserts a mark only when the transaction's last mark was neither `*` (which
 *   covers every scope) nor this scope; it remembers that mark in the transaction-local setting
 *   `cairn.change_mark`. A setting rolls back with its (sub)transaction, as the mark's row does, so a
 *   remembered mark is always one that is still there.
 * - The triggers are plain IF code whose calls are PL/pgSQL simple expressions (no query per call): the
 *   row's scope when inserted or updated, and the old row's when deleted or when the update moved it.
 *
 * The scopes are those of migration ChangeMarks: `repo:<id>` for the rows of a repository's issues,
 * comments, counters and feeds, `user:<id>` for notifications, `token:<id>` for a token's use stamp,
 * `*` for everything else.
 */
interface Narrow {
  /** The columns the scope is made of: an update that changes none of them marks the new row's scope only. */
  keys: string[];
  /** The scope of a row (`r` is `new` or `old`). */
  scope(r: string): string;
}

const inIssue = (r: string) => `coalesce((select 'repo:' || i."repo_id" from "issue" i where i."id" = ${r}."issue_id"), '*')`;

const NARROW: Record<string, Narrow> = {
  issue: { keys: ['repo_id'], scope: (r) => `'repo:' || ${r}."repo_id"` },
  comment: { keys: ['issue_id'], scope: inIssue },
  issue_watch: { keys: ['issue_id'], scope: inIssue },
  repository: { keys: ['id'], scope: (r) => `'repo:' || ${r}."id"` },
  resource_index: {
    keys: ['kind', 'group_id'],
    scope: (r) => `case when ${r}."kind" = 'issue' then 'repo:' || ${r}."group_id" else '*' end`,
  },
  action: { keys: ['repo_id'], scope: (r) => `coalesce('repo:' || ${r}."repo_id", '*')` },
  hook_task: { keys: ['repo_id'], scope: (r) => `case when ${r}."repo_id" > 0 then 'repo:' || ${r}."repo_id" else '*' end` },
  notification: { keys: ['user_id'], scope: (r) => `coalesce('user:' || ${r}."user_id", '*')` },
};

const columns = (r: string, keys: string[]) => `(${keys.map((k) => `${r}."${k}"`).join(', ')})`;

function narrowBody(n: Narrow): string {
  const moved = `${columns('old', n.keys)} is distinct from ${columns('new', n.keys)}`;
  return `if tg_op <> 'DELETE' then done := "change_mark"(${n.scope('new')}); end if;
  if tg_op = 'DELETE' or (tg_op = 'UPDATE' and ${moved}) then done := "change_mark"(${n.scope('old')}); end if;`;
}

const trigger = (name: string, body: string) => `create or replace function "${name}"() returns trigger language plpgsql as $$
declare done boolean;
begin
  ${body}
  return null;
end $$`;

export class Migration20261129170000MarksOncePerScope extends Migration {
  override async up(): Promise<void> {
    this.addSql(`create function "change_mark"(s text) returns boolean language plpgsql as $$
declare
  x text := pg_current_xact_id()::text;
  last text := current_setting('cairn.change_mark', true);
begin
  if last = x || ' *' or last = x || ' ' || s then return false; end if;
  last := set_config('cairn.change_mark', x || ' ' || s, true);
  insert into "change_mark" ("x", "scope") values (pg_current_xact_id(), s) on conflict do nothing;
  return true;
end $$`);
    this.addSql(trigger('change_mark_all', `done := "change_mark"('*');`));
    for (const [table, n] of Object.entries(NARROW)) this.addSql(trigger(`change_mark_${table}`, narrowBody(n)));
    // A token's use is stamped at most once a minute and no kept answer shows the stamp; anything else of a
    // token (a new one, a revocation, its scopes) changes who may read what.
    this.addSql(
      trigger(
        'change_mark_access_token',
        `done := "change_mark"(case when tg_op = 'UPDATE' and to_jsonb(old) - 'updated_at' = to_jsonb(new) - 'updated_at' then 'token:' || new."id" else '*' end);`,
      ),
    );
    this.addSql('drop function "change_mark_put"(text)');
  }
}
