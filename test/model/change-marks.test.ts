// The change marks (migration ChangeMarks, model/db-clock.ts): every table has the triggers that mark
// what a transaction changed, so no writer can change a row unseen by kept answers; and the frequent
// writes (a new issue, a new comment) mark only the scopes of their repository and of users, not `*`.
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { newRepo, setup, type Env } from '../handlers/repo-setup.ts';
import { NARROW_ANSWERS } from '../../lib/http/answer-scopes.ts';
import { routes } from '../../routes.table.ts';
import { CLOCK_SETTINGS, MARKS_SINCE } from '../../model/db-clock.ts';
import type { RouteSpec } from '../../table/route-spec.ts';

let env: Env;
test.before(async () => {
  env = await setup();
});
test.after(async () => {
  await env.close();
});

const sql = <T>(text: string, params: unknown[] = []) => env.db.db.orm.em.fork().getConnection().execute<T[]>(text, params);

test('every table has a row trigger and a truncate trigger that mark changes, but the marks themselves', async () => {
  const rows = await sql<{ table: string; triggers: string[] | null }>(
    `select c.relname as "table", (select array_agg(t.tgname::text order by t.tgname) from pg_trigger t
       where t.tgrelid = c.oid and t.tgname in ('change_mark_rows', 'change_mark_truncate')) as triggers
     from pg_class c where c.relnamespace = current_schema()::regnamespace and c.relkind in ('r', 'p')`,
  );
  assert.ok(rows.length > 50, `${rows.length} tables`);
  const missing = rows
    .filter((r) => r.table !== 'change_mark')
    .filter((r) => (r.triggers ?? []).join(',') !== 'change_mark_rows,change_mark_truncate')
    .map((r) => r.table);
  assert.equal(missing, [], 'tables whose changes no kept answer would see (give them the triggers of migration ChangeMarks)');
});

const scopes = async () => new Set((await sql<{ scope: string }>('select distinct scope from change_mark')).map((r) => r.scope));
/** The scopes marked by what `fn` does (new scopes only: the marks of one test database). */
async function marked(fn: () => Promise<void>): Promise<string[]> {
  await sql('delete from change_mark');
  await fn();
  return [...(await scopes())].sort();
}

test('a new issue and a new comment mark their repository (and users), not everything', async () => {
  const repo = await newRepo(env, env.alice);
  // bob watches: the writes notify him.
  assert.is((await env.as(env.bob, 'PUT', `/repos/${repo.full_name}/subscription`)).status, 200);
  let index = 0;
  const issue = await marked(async () => {
    const r = await env.as(env.alice, 'POST', `/repos/${repo.full_name}/issues`, { title: 'marked', body: 'text' });
    assert.is(r.status, 201, r.text);
    index = r.json.number;
  });
  // The repository's rows, and bob's thread.
  assert.equal(issue, [`repo:${repo.id}`, `user:${env.bob.id}`]);
  const comment = await marked(async () => {
    const r = await env.as(env.bob, 'POST', `/repos/${repo.full_name}/issues/${index}/comments`, { body: 'a comment' });
    assert.is(r.status, 201, r.text);
  });
  // The repository's rows, and the thread of alice, who opened the issue.
  assert.equal(comment, [`repo:${repo.id}`, `user:${env.alice.id}`]);
  // A change of what everyone may read marks everything.
  const collaborator = await marked(async () => {
    const r = await env.as(env.alice, 'PUT', `/repos/${repo.full_name}/collaborators/${env.carol.name}`, { permission: 'read' });
    assert.is(r.status, 204, r.text);
  });
  assert.ok(collaborator.includes('*'), collaborator.join(' '));
});

test("the stamp of a token's use marks only the token; its revocation marks everything", async () => {
  const [t] = await sql<{ id: number }>('select id from access_token order by id limit 1');
  const used = await marked(async () => {
    await sql("update access_token set updated_at = updated_at + interval '1 second' where id = ?", [t!.id]);
  });
  assert.equal(used, [`token:${t!.id}`]);
  const revoked = await marked(async () => {
    await sql('delete from access_token where id = ?', [t!.id]);
  });
  assert.equal(revoked, ['*']);
});

/** Runs `fn` with a statement runner inside a transaction of its own, rolled back at the end. */
async function rolledBack(fn: (run: <T>(text: string, params?: unknown[]) => Promise<T[]>) => Promise<void>): Promise<void> {
  const em = env.db.db.orm.em.fork();
  await em.begin();
  try {
    const conn = em.getConnection();
    const tx = em.getTransactionContext();
    await fn(<T>(text: string, params: unknown[] = []) => conn.execute<T[]>(text, params, 'all', tx));
  } finally {
    await em.rollback();
  }
}

test('a transaction marks a scope once, `*` covers every scope, and a rolled-back savepoint takes its marks back', async () => {
  await rolledBack(async (run) => {
    const mark = async (scope: string) => (await run<{ m: boolean }>('select change_mark(?) as m', [scope]))[0]!.m;
    const own = async () =>
      (await run<{ scope: string }>('select scope from change_mark where x = pg_current_xact_id() order by scope')).map((r) => r.scope);
    assert.is(await mark('repo:1'), true);
    assert.is(await mark('repo:1'), false, 'the same scope again');
    assert.is(await mark('user:2'), true);
    assert.is(await mark('repo:1'), true, 'another scope came between: marked again, which the key makes one row');
    await run('savepoint s');
    assert.is(await mark('repo:3'), true);
    await run('rollback to savepoint s');
    assert.equal(await own(), ['repo:1', 'user:2']);
    assert.is(await mark('repo:3'), true, 'the rolled-back mark is not remembered');
    assert.is(await mark('*'), true);
    assert.is(await mark('repo:4'), false, '`*` covers it');
    assert.is(await mark('*'), false);
    assert.equal(await own(), ['*', 'repo:1', 'repo:3', 'user:2']);
  });
});

test("the clock's reading takes the marks since a snapshot by the key, however many marks the table held", async () => {
  await rolledBack(async (run) => {
    // A marks table as a busy server leaves it between two vacuums: 100,000 marks deleted, no
    // statistics (a temporary table of the same name, which the statements below read instead).
    await run('create temp table change_mark (x xid8 not null, scope text not null, primary key (x, scope)) on commit drop');
    await run(`insert into change_mark select (pg_snapshot_xmin(pg_current_snapshot())::text::bigint - 150000 + g)::text::xid8, 'repo:' || g
      from generate_series(1, 100000) g`);
    await run('delete from change_mark');
    for (const [k, v] of Object.entries(CLOCK_SETTINGS)) await run(`set local ${k} = '${v}'`);
    const [snapshot] = await run<{ s: string }>('select pg_current_snapshot()::text as s');
    // The reading's own plan: a custom one, for this snapshot.
    const [plan] = await run<{ 'QUERY PLAN': unknown }>(`explain (format json) ${MARKS_SINCE.replaceAll('$1', `'${snapshot!.s}'`)}`);
    const shown = JSON.stringify(plan!['QUERY PLAN']);
    assert.not.ok(shown.includes('Seq Scan'), shown);
    assert.ok(shown.includes('change_mark_pkey'), shown);
  });
});

test('a row that declares narrow scopes is a kept row', () => {
  const kept = new Set((routes as readonly RouteSpec[]).filter((r) => r.cached === true).map((r) => r.handler));
  for (const key of Object.keys(NARROW_ANSWERS)) assert.ok(kept.has(key as never), `${key} is not a kept row`);
});

test.run();
