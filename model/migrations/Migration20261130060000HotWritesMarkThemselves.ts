import { Migration } from '@mikro-orm/migrations';

/**
 * The two hot writes (migration HotWriteFunctions) write their own change marks, in one statement, instead
 * of a row trigger firing for each row they write (the comment or issue, each notification thread, each
 * feed row, the counters).
 *
 * - Every `change_mark_rows` trigger fires only while the transaction-local setting `cairn.marks_written`
 *   is not `on`. Only cairn_new_comment and cairn_new_issue set it, for the length of their own writes,
 *   and clear it before they return; an error rolls it back with the transaction. Every other writer,
 *   and these two's callers after them, are marked by the triggers as before.
 * - The functions mark what the triggers would have: `repo:<id>` of the issue's repository (its issue,
 *   comment, watch, number, counters and feed rows) and `user:<id>` of every notification thread the
 *   write inserted or updated (the thread upsert's own `returning`).
 */
const THREAD_CONFLICT = `on conflict (user_id, issue_id) where issue_id <> 0 do update set
      status = case when notification.status = 2 then 1 else notification.status end,
      comment_id = case when notification.status = 2 then excluded.comment_id else notification.comment_id end,
      repo_id = excluded.repo_id, source = excluded.source,
      updated_by = excluded.updated_by, updated_at = excluded.updated_at
    returning user_id`;

/** Marks `user:<id>` for every thread the insert `t` (a statement ending in `returning user_id`) wrote. */
const markThreads = (t: string) =>
  `with t as (${t})
  insert into change_mark (x, scope) select pg_current_xact_id(), 'user:' || t.user_id from t on conflict do nothing`;

const LISTED_THREADS = (
  issueId: string,
  commentId: string,
) => `insert into notification (user_id, repo_id, status, source, issue_id, comment_id, updated_by, created_at, updated_at)
    select r.uid, p_repo_id, 1, p_source, ${issueId}, ${commentId}, p_poster_id, p_thread_at, p_thread_at
    from unnest(p_thread_users) with ordinality as r(uid, n) order by r.n
    ${THREAD_CONFLICT}`;

const OWN_MARKS_ON = `perform set_config('cairn.marks_written', 'on', true);`;
/** The write's other marks (scope expressions; a null one marks nothing), then the setting cleared. */
const OWN_MARKS_OFF = (...scopes: string[]) => `insert into change_mark (x, scope)
    select distinct pg_current_xact_id(), s from unnest(array[${scopes.join(', ')}]) s where s is not null on conflict do nothing;
  perform set_config('cairn.marks_written', '', true);`;

export class Migration20261130060000HotWritesMarkThemselves extends Migration {
  override async up(): Promise<void> {
    this.addSql(`create or replace function "cairn_new_comment"(
  p_id int, p_issue_id int, p_poster_id int, p_content text, p_created_at timestamptz,
  p_threads int, p_thread_users int[], p_repo_id int, p_source int, p_issue_poster_id int, p_repo_watchers boolean, p_thread_at timestamptz,
  p_receivers int[], p_op smallint, p_ref_name varchar, p_is_private boolean, p_action_content text, p_action_at timestamptz,
  p_updated_at timestamptz
) returns setof "comment" language plpgsql as $$
declare
  c "comment";
  repo int;
begin
  ${OWN_MARKS_ON}
  insert into "comment" (id, type, issue_id, poster_id, content, created_at, updated_at)
    values (p_id, 0, p_issue_id, p_poster_id, p_content, p_created_at, p_created_at) returning * into c;
  if p_threads = 1 then
    ${markThreads(`insert into notification (user_id, repo_id, status, source, issue_id, comment_id, updated_by, created_at, updated_at)
    select f.uid, p_repo_id, 1, p_source, p_issue_id, p_id, p_poster_id, p_thread_at, p_thread_at
    from (
      select f.uid, min(f.kind) as kind from (
        select p_issue_poster_id as uid, 0 as kind
        union all select user_id, 1 from issue_watch where issue_id = p_issue_id and is_watching
        union all select user_id, 2 from watch where repo_id = p_repo_id and mode in (1, 3) and p_repo_watchers
        union all select uid, 3 from (
          with recursive p(uid) as (
            (select poster_id from "comment" where issue_id = p_issue_id and type in (0, 21, 22) order by poster_id limit 1)
            union all
            select (select cc.poster_id from "comment" cc where cc.issue_id = p_issue_id and cc.type in (0, 21, 22) and cc.poster_id > p.uid order by cc.poster_id limit 1)
              from p where p.uid is not null
          ) select uid from p where uid is not null
        ) posters
        union all select assignee_id, 4 from issue_assignees where issue_id = p_issue_id
      ) f
      where f.uid > 0 and f.uid <> p_poster_id
        and f.uid not in (select user_id from issue_watch where issue_id = p_issue_id and not is_watching)
        and f.uid not in (select user_id from blocked_user where block_id = p_poster_id)
      group by f.uid
    ) f join "user" u on u.id = f.uid
    order by f.kind, f.uid
    ${THREAD_CONFLICT}`)};
  elsif p_threads = 2 then
    ${markThreads(LISTED_THREADS('p_issue_id', 'p_id'))};
  end if;
  if p_receivers is not null then
    insert into "action" (user_id, op_type, act_user_id, repo_id, comment_id, ref_name, is_private, content, created_at)
    select r.uid, p_op, p_poster_id, p_repo_id, p_id, p_ref_name, p_is_private, p_action_content, p_action_at
    from unnest(p_receivers) with ordinality as r(uid, n) order by r.n;
  end if;
  update issue set num_comments = num_comments + 1, updated_at = p_updated_at where id = p_issue_id returning repo_id into repo;
  -- The issue's repository (* when the issue is gone, as the comment trigger would), and the feed rows' repository.
  ${OWN_MARKS_OFF(`coalesce('repo:' || repo, '*')`, `case when p_receivers is not null then 'repo:' || p_repo_id end`)}
  return next c;
end
$$`);
    this.addSql(`create or replace function "cairn_new_issue"(
  p_id int, p_repo_id int, p_poster_id int, p_title text, p_content text, p_ref text, p_deadline timestamptz,
  p_created_at timestamptz, p_updated_at timestamptz, p_watcher int,
  p_threads int, p_thread_users int[], p_source int, p_repo_watchers boolean, p_thread_at timestamptz,
  p_receivers int[], p_op smallint, p_is_private boolean, p_action_content text, p_action_at timestamptz
) returns setof issue language plpgsql as $$
declare
  num int;
  i issue;
begin
  ${OWN_MARKS_ON}
  insert into resource_index (kind, group_id, max_index) values ('issue', p_repo_id, 1)
    on conflict (kind, group_id) do update set max_index = resource_index.max_index + 1
    returning max_index into num;
  insert into issue (id, index, repo_id, poster_id, original_author, original_author_id, title, content, ref,
      milestone_id, is_pull, is_closed, deadline, closed_at, created_at, updated_at)
    values (p_id, num, p_repo_id, p_poster_id, '', 0, p_title, p_content, p_ref, 0, false, false, p_deadline, null, p_created_at, p_updated_at)
    returning * into i;
  if p_watcher > 0 then
    insert into issue_watch (user_id, issue_id, is_watching, created_at, updated_at) values (p_watcher, p_id, true, i.created_at, i.created_at)
    on conflict (user_id, issue_id) do update set is_watching = true, updated_at = excluded.updated_at where not issue_watch.is_watching;
  end if;
  if p_threads = 1 then
    ${markThreads(`insert into notification (user_id, repo_id, status, source, issue_id, comment_id, updated_by, created_at, updated_at)
    select f.uid, p_repo_id, 1, p_source, p_id, 0, p_poster_id, p_thread_at, p_thread_at
    from (
      select w.user_id as uid, 2 as kind from watch w
      where w.repo_id = p_repo_id and w.mode in (1, 3) and p_repo_watchers and w.user_id > 0 and w.user_id <> p_poster_id
        and w.user_id not in (select user_id from blocked_user where block_id = p_poster_id)
    ) f join "user" u on u.id = f.uid
    order by f.kind, f.uid
    ${THREAD_CONFLICT}`)};
  elsif p_threads = 2 then
    ${markThreads(LISTED_THREADS('p_id', '0'))};
  end if;
  if p_receivers is not null then
    insert into "action" (user_id, op_type, act_user_id, repo_id, comment_id, ref_name, is_private, content, created_at)
    select r.uid, p_op, p_poster_id, p_repo_id, 0, '', p_is_private, i.index || '|' || p_action_content, p_action_at
    from unnest(p_receivers) with ordinality as r(uid, n) order by r.n;
  end if;
  update repository set num_open_issues = num_open_issues + 1 where id = p_repo_id;
  ${OWN_MARKS_OFF(`'repo:' || p_repo_id`)}
  return next i;
end
$$`);
    // Every row trigger of migration ChangeMarks again, firing only while the setting is not on.
    this.addSql(`do $$
declare t record;
begin
  for t in select c.relname, p.proname from pg_trigger g join pg_class c on c.oid = g.tgrelid join pg_proc p on p.oid = g.tgfoid
      where g.tgname = 'change_mark_rows' and c.relnamespace = current_schema()::regnamespace loop
    execute format('drop trigger "change_mark_rows" on %I', t.relname);
    execute format('create trigger "change_mark_rows" after insert or update or delete on %I for each row'
      || ' when (current_setting(''cairn.marks_written'', true) is distinct from ''on'') execute function %I()', t.relname, t.proname);
  end loop;
end $$`);
  }
}
