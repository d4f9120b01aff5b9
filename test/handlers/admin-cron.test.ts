// GET /admin/cron and POST /admin/cron/{task}: the tasks cairn really runs, run counts kept in the
// database (two servers on one database agree), running a task now does its work.
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { Action, OpType } from '../../model/action.ts';
import { Mirror } from '../../model/mirror.ts';
import { ZERO_TIME } from '../../model/time.ts';
import { startServer, type TestServer } from '../helpers/server.ts';
import { call } from '../helpers/client.ts';
import { checked, gitDir, setup, uniq, valid, validList, type Env } from './repo-setup.ts';

let env: Env;
let other: TestServer;
let scratch: string;
test.before(async () => {
  env = await setup({ MIGRATIONS__ALLOW_LOCALNETWORKS: 'true' });
  other = await startServer(env.db);
  scratch = fs.mkdtempSync(path.join(os.tmpdir(), 'cairn-cron-'));
});
test.after(async () => {
  await other.close();
  await env.close();
  fs.rmSync(scratch, { recursive: true, force: true });
});

type Cron = { name: string; schedule: string; next: string; prev: string; exec_times: number };
const em = () => env.db.db.orm.em.fork();

async function tasks(api = env.srv.api): Promise<Record<string, Cron>> {
  const r = checked(await call(api, 'GET', '/admin/cron', { token: env.admin.token }));
  assert.is(r.status, 200, r.text);
  validList('Cron', r);
  return Object.fromEntries((r.json as Cron[]).map((c) => [c.name, c]));
}

test('GET /admin/cron lists the tasks cairn runs, by name, with Forgejo schedules and zero times before a run', async () => {
  const r = await env.as(env.admin, 'GET', '/admin/cron');
  assert.is(r.status, 200);
  validList('Cron', r);
  assert.equal(
    r.json.map((c: Cron) => c.name),
    ['cleanup_hook_task_table', 'delete_old_actions', 'update_mirrors'],
  );
  assert.is(r.headers.get('x-total-count'), '3');
  const t = await tasks();
  assert.is(t.update_mirrors.schedule, '@every 30s');
  assert.is(t.delete_old_actions.schedule, '-');
  assert.is(t.cleanup_hook_task_table.schedule, '@midnight');
  for (const c of Object.values(t)) {
    assert.is(c.exec_times, 0);
    assert.is(c.prev, ZERO_TIME);
    assert.is(c.next, ZERO_TIME);
  }
  const page = await env.as(env.admin, 'GET', '/admin/cron?limit=1&page=2');
  assert.equal(
    page.json.map((c: Cron) => c.name),
    ['delete_old_actions'],
  );
  assert.is(page.headers.get('x-total-count'), '3');
});

test('only site admins: 401 anonymous, 403 for others, nothing run', async () => {
  assert.is((await env.as(undefined, 'GET', '/admin/cron')).status, 401);
  assert.is((await env.as(env.alice, 'GET', '/admin/cron')).status, 403);
  assert.is((await env.as(env.alice, 'POST', '/admin/cron/delete_old_actions')).status, 403);
  assert.is((await tasks()).delete_old_actions.exec_times, 0);
});

test('POST /admin/cron/{task}: 404 for an unknown task', async () => {
  const r = await env.as(env.admin, 'POST', '/admin/cron/no_such_task');
  assert.is(r.status, 404);
  valid('APINotFound', r.json);
});

test('delete_old_actions deletes activities older than a year and counts the run; another server sees the count', async () => {
  const { alice } = env;
  const repo = await env.as(alice, 'POST', '/user/repos', { name: uniq('r') });
  const m = em();
  const row = (createdAt: Date) =>
    m.create(Action, { userId: alice.id, opType: OpType.create_repo, actUserId: alice.id, repoId: repo.json.id, createdAt });
  const old = row(new Date(Date.now() - 400 * 86_400_000));
  const recent = row(new Date(Date.now() - 300 * 86_400_000));
  await m.flush();
  const t0 = Date.now();
  const r = await env.as(env.admin, 'POST', '/admin/cron/delete_old_actions');
  assert.is(r.status, 204, r.text);
  assert.is(await em().count(Action, { id: old.id }), 0);
  assert.is(await em().count(Action, { id: recent.id }), 1);
  const after = (await tasks(other.api)).delete_old_actions;
  assert.is(after.exec_times, 1);
  assert.ok(Math.abs(new Date(after.prev).getTime() - t0) < 5_000, after.prev);
  assert.is(after.next, ZERO_TIME, 'not scheduled');
  assert.is((await env.as(env.admin, 'POST', '/admin/cron/delete_old_actions')).status, 204);
  assert.is((await tasks()).delete_old_actions.exec_times, 2);
});

test('update_mirrors fetches due pull mirrors now; next is a tick after the last run', async () => {
  const src = path.join(scratch, `${uniq('src')}.git`);
  execFileSync('git', ['init', '--bare', '--quiet', '--initial-branch=main', src]);
  const git = (dir: string, ...args: string[]) => execFileSync('git', ['--git-dir', dir, ...args], { encoding: 'utf8' }).trim();
  const ids = { ...process.env, GIT_AUTHOR_NAME: 't', GIT_AUTHOR_EMAIL: 't@x', GIT_COMMITTER_NAME: 't', GIT_COMMITTER_EMAIL: 't@x' };
  const commit = (msg: string, parent?: string) => {
    const tree = execFileSync('git', ['--git-dir', src, 'mktree'], { input: '', encoding: 'utf8' }).trim();
    const c = execFileSync('git', ['--git-dir', src, 'commit-tree', tree, '-m', msg, ...(parent ? ['-p', parent] : [])], {
      encoding: 'utf8',
      env: ids,
    }).trim();
    git(src, 'update-ref', 'refs/heads/main', c);
    return c;
  };
  const first = commit('first');
  const r = await env.as(env.alice, 'POST', '/repos/migrate', {
    clone_addr: `file://${src}`,
    repo_name: uniq('pm'),
    mirror: true,
    mirror_interval: '10m',
  });
  assert.is(r.status, 201, r.text);
  const dir = gitDir(env, env.alice.name, r.json.name);
  const second = commit('second', first);
  assert.is(git(dir, 'rev-parse', 'refs/heads/main'), first);
  await em().nativeUpdate(Mirror, { repoId: r.json.id }, { nextUpdateAt: new Date(Date.now() - 60_000) });
  const run = await env.as(env.admin, 'POST', '/admin/cron/update_mirrors');
  assert.is(run.status, 204, run.text);
  // The tick runs beside the request, as Forgejo's mirror queue does.
  // Done when the mirror is due again after its interval (while claimed, a row is leased 15 minutes ahead).
  const dueIn = async () => ((await em().findOneOrFail(Mirror, { repoId: r.json.id })).nextUpdateAt?.getTime() ?? 0) - Date.now();
  const synced = async () => {
    const ms = await dueIn();
    return ms > 500_000 && ms <= 600_000;
  };
  for (let i = 0; i < 100 && !(await synced()); i++) await new Promise((res) => setTimeout(res, 100));
  assert.ok(await synced(), `due again after its interval (${await dueIn()})`);
  assert.is(git(dir, 'rev-parse', 'refs/heads/main'), second, 'the due mirror was fetched');
  const t = (await tasks()).update_mirrors;
  assert.is(t.exec_times, 1);
  assert.is(new Date(t.next).getTime() - new Date(t.prev).getTime(), 30_000);
});

test.run();
