// Kept answers (lib/http/answer-cache.ts): a `cached` row's answer is sent again without a
// statement while the database shows no change, and never after a change has ended: a write through
// the API, a write straight to the database, a git change, a revoked token, and the same from another
// server with connections of its own (and, on PostgreSQL, from another process).
import { execFile, spawn } from 'node:child_process';
import { promisify } from 'node:util';
import os from 'node:os';
import path from 'node:path';
import pg from 'pg';
import pino from 'pino';
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { call } from '../helpers/client.ts';
import { countSql } from '../helpers/sql-count.ts';
import { loadConfig } from '../../config.ts';
import { openDatabase } from '../../model/db.ts';
import { postgresClock } from '../../model/db-clock.ts';
import { createApp, listen } from '../../server.ts';
import { gitDir, newRepo, setup, type Env } from './repo-setup.ts';
import { startServer } from '../helpers/server.ts';
import { routes } from '../../routes.table.ts';
import type { RouteSpec } from '../../table/route-spec.ts';
import { runGit } from '../../git/exec.ts';

let env: Env;
test.before(async () => {
  env = await setup();
});
test.after(async () => {
  await env.close();
});

const orm = () => env.db.db.orm;
const get = (path: string, token?: string, headers: Record<string, string> = {}) => call(env.srv.api, 'GET', path, { token, headers });
/** The statements the ORM's connections sent for one request (the clock's own connection is not one of them). */
const statements = async (path: string, token?: string) => (await countSql(orm(), () => get(path, token))).statements.length;
const b64 = (s: string) => Buffer.from(s).toString('base64');

/**
 * A read answered from a kept answer (no statement on the pool), asked up to 50 times: the snapshot is
 * the whole PostgreSQL server's, so a write in another database (another test file running meanwhile)
 * makes a kept answer be made again, which costs a read and changes nothing else.
 */
async function kept(path: string, token?: string) {
  for (let i = 0; i < 50; i++) {
    const { result, statements: sent } = await countSql(orm(), () => get(path, token));
    if (sent.length === 0) return result;
  }
  assert.unreachable(`${path}: never answered from a kept answer`);
  throw new Error('unreachable');
}

test('a kept answer is sent again with no statement, the same bytes and tag, and a request id of its own', async () => {
  const repo = await newRepo(env, env.alice);
  const path = `/repos/${repo.full_name}`;
  const first = await get(path, env.alice.token);
  assert.is(first.status, 200);
  const again = await kept(path, env.alice.token);
  assert.is(again.text, first.text);
  assert.is(again.headers.get('etag'), first.headers.get('etag'));
  assert.is(again.headers.get('content-type'), first.headers.get('content-type'));
  assert.is(again.headers.get('cache-control'), first.headers.get('cache-control'));
  assert.is.not(again.headers.get('x-request-id'), first.headers.get('x-request-id'));
  // Conditional and HEAD requests are answered from it as well.
  const tagged = await get(path, env.alice.token, { 'If-None-Match': first.headers.get('etag')! });
  assert.is(tagged.status, 304);
  assert.is(tagged.text, '');
  const head = await fetch(`${env.srv.api}${path}`, { method: 'HEAD', headers: { Authorization: `token ${env.alice.token}` } });
  assert.is(head.status, 200);
  assert.is(head.headers.get('content-length'), String(Buffer.byteLength(first.text)));
  assert.is(await head.text(), '');
});

test('answers are kept per caller: another token, no token and a private repository each get their own', async () => {
  const repo = await newRepo(env, env.alice, { private: true });
  const path = `/repos/${repo.full_name}`;
  assert.is((await get(path, env.alice.token)).status, 200);
  assert.is((await get(path, env.alice.token)).status, 200);
  assert.is((await get(path, env.bob.token)).status, 404);
  assert.is((await get(path)).status, 404);
  const me = await get('/user', env.bob.token);
  assert.is(me.json.login, env.bob.name);
  assert.is((await get('/user', env.alice.token)).json.login, env.alice.name);
});

test('a write through the API is seen by the next read', async () => {
  const repo = await newRepo(env, env.alice, { description: 'one' });
  const path = `/repos/${repo.full_name}`;
  assert.is((await get(path, env.alice.token)).json.description, 'one');
  assert.is((await get(path, env.alice.token)).json.description, 'one');
  assert.is((await env.as(env.alice, 'PATCH', path, { description: 'two' })).status, 200);
  assert.is((await get(path, env.alice.token)).json.description, 'two');
  // A list: a new issue is on the next page read, and a search finds the renamed repository.
  const issues = `${path}/issues?state=open`;
  assert.is((await get(issues, env.alice.token)).json.length, 0);
  assert.is((await get(issues, env.alice.token)).json.length, 0);
  assert.is((await env.as(env.alice, 'POST', `${path}/issues`, { title: 'new' })).status, 201);
  assert.is((await get(issues, env.alice.token)).json.length, 1);
  const search = `/repos/search?q=${repo.name}-renamed`;
  assert.is((await get(search, env.alice.token)).json.data.length, 0);
  assert.is((await env.as(env.alice, 'PATCH', path, { name: `${repo.name}-renamed` })).status, 200);
  assert.is((await get(search, env.alice.token)).json.data.length, 1);
});

test('a write straight to the database, on a connection cairn does not hold, is seen by the next read', async () => {
  const repo = await newRepo(env, env.alice, { description: 'before' });
  const path = `/repos/${repo.full_name}`;
  assert.is((await get(path, env.alice.token)).json.description, 'before');
  await kept(path, env.alice.token);
  await orm().em.fork().getConnection().execute('update repository set description = ? where id = ?', ['after', repo.id]);
  assert.is((await get(path, env.alice.token)).json.description, 'after');
});

test('a revoked token is refused at once, though its answer was kept', async () => {
  const made = await call(env.srv.api, 'POST', `/users/${env.carol.name}/tokens`, {
    basic: [env.carol.name, env.carol.password],
    body: { name: 'kept', scopes: ['all'] },
  });
  assert.is(made.status, 201, made.text);
  const token = made.json.sha1 as string;
  assert.is((await get('/user', token)).status, 200);
  await kept('/user', token);
  const gone = await call(env.srv.api, 'DELETE', `/users/${env.carol.name}/tokens/${made.json.id}`, {
    basic: [env.carol.name, env.carol.password],
  });
  assert.is(gone.status, 204, gone.text);
  assert.is((await get('/user', token)).status, 401);
});

test('a git change is seen by the next read: a file changed through the API, and a push', async () => {
  const repo = await newRepo(env, env.alice, { auto_init: true, readme: 'Default' });
  const file = `/repos/${repo.full_name}/contents/README.md`;
  const commits = `/repos/${repo.full_name}/commits?limit=5`;
  const first = await get(file, env.alice.token);
  assert.is(first.status, 200);
  const log = (await get(commits, env.alice.token)).json.length as number;
  await kept(file, env.alice.token);
  const put = await env.as(env.alice, 'PUT', file, { content: b64('changed'), sha: first.json.sha, message: 'edit' });
  assert.is(put.status, 200, put.text);
  assert.is(Buffer.from((await get(file, env.alice.token)).json.content, 'base64').toString(), 'changed');
  assert.is((await get(commits, env.alice.token)).json.length, log + 1);

  // A push over HTTP with the git client, run straight (git/exec.ts would announce its own commands).
  const work = path.join(os.tmpdir(), `cairn-kept-${process.pid}-${Date.now()}`);
  const remote = `${env.srv.url}/${repo.full_name}.git`.replace('://', `://${env.alice.name}:${env.alice.token}@`);
  const git = (...args: string[]) =>
    promisify(execFile)('git', args, { cwd: os.tmpdir(), env: { ...process.env, GIT_TERMINAL_PROMPT: '0' } });
  await git('clone', '-q', remote, work);
  await git('-C', work, '-c', 'user.name=A', '-c', 'user.email=a@example.com', 'commit', '-q', '--allow-empty', '-m', 'pushed');
  assert.is((await get(commits, env.alice.token)).json.length, log + 1);
  await kept(commits, env.alice.token);
  await git('-C', work, 'push', '-q', 'origin', 'HEAD');
  const after = await get(commits, env.alice.token);
  assert.is(after.json.length, log + 2);
  assert.is(after.json[0].commit.message.trim(), 'pushed');
});

test('a ref moved by git alone, with no row written, is seen by the next read (git/exec.ts announces it)', async () => {
  const repo = await newRepo(env, env.alice, { auto_init: true, readme: 'Default' });
  const commits = `/repos/${repo.full_name}/commits?limit=5`;
  const before = await get(commits, env.alice.token);
  assert.is(before.status, 200);
  await kept(commits, env.alice.token);
  const dir = gitDir(env, repo.owner.login, repo.name);
  const head = before.json[0].sha as string;
  const tree = (await runGit(dir, ['rev-parse', `${head}^{tree}`])).stdout.toString().trim();
  const made = (
    await runGit(dir, ['commit-tree', tree, '-p', head, '-m', 'moved by git alone'], {
      env: { GIT_AUTHOR_NAME: 'A', GIT_AUTHOR_EMAIL: 'a@example.com', GIT_COMMITTER_NAME: 'A', GIT_COMMITTER_EMAIL: 'a@example.com' },
    })
  ).stdout
    .toString()
    .trim();
  await runGit(dir, ['update-ref', `refs/heads/${repo.default_branch}`, made, head]);
  const after = await get(commits, env.alice.token);
  assert.is(after.json[0].sha, made);
});

test('every row marked cached answers as a server that keeps nothing does, whatever other headers come, twice over', async () => {
  const plain = await startServer(env.db, { CACHE__ANSWERS: 'false' });
  try {
    const repo = await newRepo(env, env.alice, { auto_init: true, readme: 'Default' });
    const R = `/repos/${repo.full_name}`;
    const org = await env.as(env.alice, 'POST', '/orgs', { username: `kept${process.pid % 1000}` });
    assert.is(org.status, 201, org.text);
    assert.is((await env.as(env.alice, 'POST', `${R}/labels`, { name: 'bug', color: '#ff0000' })).status, 201);
    assert.is((await env.as(env.alice, 'POST', `${R}/issues`, { title: 'one' })).status, 201);
    const sha = (await get(`${R}/branches/${repo.default_branch}`, env.alice.token)).json.commit.id as string;
    assert.is((await env.as(env.alice, 'POST', `${R}/statuses/${sha}`, { state: 'success', context: 'ci' })).status, 201);
    // A URL for each marked row: a row marked without one here fails, so that marking one is reviewed.
    const urls: Record<string, string> = {
      '/user': '/user',
      '/users/{username}': `/users/${env.alice.name}`,
      '/orgs/{org}': `/orgs/${org.json.username}`,
      '/repos/search': '/repos/search?limit=5',
      '/repos/{username}/{reponame}': R,
      '/repos/{username}/{reponame}/branches': `${R}/branches`,
      '/repos/{username}/{reponame}/branches/*': `${R}/branches/${repo.default_branch}`,
      '/repos/{username}/{reponame}/tags': `${R}/tags`,
      '/repos/{username}/{reponame}/statuses/{sha}': `${R}/statuses/${sha}`,
      '/repos/{username}/{reponame}/commits': `${R}/commits?limit=2`,
      '/repos/{username}/{reponame}/commits/{ref}/status': `${R}/commits/${repo.default_branch}/status`,
      '/repos/{username}/{reponame}/commits/{ref}/statuses': `${R}/commits/${repo.default_branch}/statuses`,
      '/repos/{username}/{reponame}/contents/*': `${R}/contents/README.md`,
      '/repos/{username}/{reponame}/issues': `${R}/issues?state=all`,
      '/repos/{username}/{reponame}/issues/{index}': `${R}/issues/1`,
      '/repos/{username}/{reponame}/labels': `${R}/labels`,
    };
    const marked = (routes as readonly RouteSpec[]).filter((r) => r.cached);
    assert.ok(marked.length >= 6);
    const variants: Record<string, string>[] = [
      {},
      { Accept: 'application/vnd.github+json' },
      { 'Accept-Language': 'de-DE', 'X-Forwarded-For': '192.0.2.1' },
    ];
    const same = (text: string, base: string) => text.replaceAll(base, '<server>');
    for (const row of marked) {
      const url = urls[row.path];
      assert.ok(url, `no URL for the kept row ${row.path}: add one to this test`);
      for (const headers of variants) {
        for (const token of [env.alice.token, env.bob.token, undefined]) {
          const want = await call(plain.api, 'GET', url, { token, headers });
          for (let i = 0; i < 2; i++) {
            const got = await call(env.srv.api, 'GET', url, { token, headers });
            const what = `${url} ${JSON.stringify(headers)} ${token === undefined ? 'anonymous' : token === env.alice.token ? 'owner' : 'other'} #${i + 1}`;
            assert.is(got.status, want.status, what);
            assert.is(same(got.text, env.srv.url), same(want.text, plain.url), what);
            for (const h of ['content-type', 'x-total-count', 'warning'])
              assert.is(got.headers.get(h), want.headers.get(h), `${what}: ${h}`);
          }
        }
      }
    }
  } finally {
    await plain.close();
  }
});

test('a password, a Sudo header and a route not marked cached are never answered from a kept answer', async () => {
  const repo = await newRepo(env, env.alice);
  const path = `/repos/${repo.full_name}`;
  const basic = () => countSql(orm(), () => call(env.srv.api, 'GET', path, { basic: [env.alice.name, env.alice.password] }));
  await basic();
  assert.ok((await basic()).statements.length > 0, 'a password is checked every time');
  const sudo = () => countSql(orm(), () => get(path, env.admin.token, { Sudo: env.alice.name }));
  await sudo();
  assert.ok((await sudo()).statements.length > 0, 'Sudo is not keyed');
  const topics = `/repos/${repo.full_name}/topics`;
  await get(topics, env.alice.token);
  assert.ok((await statements(topics, env.alice.token)) > 0, 'a row not marked cached');
});

test('[cache] ANSWERS=false: every read runs', async () => {
  const srv = await startServer(env.db, { CACHE__ANSWERS: 'false' });
  try {
    const repo = await newRepo(env, env.alice);
    const read = () => countSql(orm(), () => call(srv.api, 'GET', `/repos/${repo.full_name}`, { token: env.alice.token }));
    await read();
    assert.ok((await read()).statements.length > 0);
  } finally {
    await srv.close();
  }
});

test('another server with connections of its own: what it writes, in rows or in git, the first one sees next', async () => {
  const url = String(orm().config.get('clientUrl') ?? '');
  if (!process.env.CAIRN__DATABASE__URL) return; // the embedded database admits one server's connections only
  const cfg = loadConfig({}, { SERVER__APP_DATA_PATH: env.db.dataPath, DATABASE__URL: url });
  const second = await openDatabase(cfg);
  const running = await listen(createApp({ config: cfg, orm: second.orm, log: pino({ level: 'silent' }) }), '127.0.0.1', 0);
  const other = `${running.url}/api/v1`;
  try {
    const repo = await newRepo(env, env.alice, { auto_init: true, readme: 'Default', description: 'one' });
    const path = `/repos/${repo.full_name}`;
    assert.is((await get(path, env.alice.token)).json.description, 'one');
    assert.is((await call(other, 'PATCH', path, { token: env.alice.token, body: { description: 'two' } })).status, 200);
    assert.is((await get(path, env.alice.token)).json.description, 'two');
    const file = `${path}/contents/README.md`;
    const sha = (await get(file, env.alice.token)).json.sha as string;
    const put = await call(other, 'PUT', file, { token: env.alice.token, body: { content: b64('from the other'), sha, message: 'other' } });
    assert.is(put.status, 200, put.text);
    assert.is(Buffer.from((await get(file, env.alice.token)).json.content, 'base64').toString(), 'from the other');
  } finally {
    await running.close();
    await second.close();
  }
});

test('another process: a file it changes is seen next by this one', async () => {
  const url = String(orm().config.get('clientUrl') ?? '');
  if (!process.env.CAIRN__DATABASE__URL) return; // the embedded database admits one process only
  const root = path.resolve(path.dirname(new URL(import.meta.url).pathname), '..', '..');
  const child = spawn(process.execPath, ['--import', 'tsx', path.join(root, 'cli.ts'), 'serve'], {
    cwd: root,
    env: {
      PATH: process.env.PATH ?? '',
      HOME: os.tmpdir(),
      CAIRN__SERVER__APP_DATA_PATH: env.db.dataPath,
      CAIRN__DATABASE__URL: url,
      CAIRN__SERVER__HTTP_PORT: '0',
      CAIRN__SERVER__HTTP_ADDR: '127.0.0.1',
      CAIRN__LOG__LEVEL: 'info',
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  try {
    let out = '';
    const base = await new Promise<string>((resolve, reject) => {
      child.stdout.on('data', (d: Buffer) => {
        out += d.toString('utf8');
        const m = /cairn listening on (http:\/\/[^\s"]+)/.exec(out);
        if (m) resolve(m[1]!);
      });
      child.stderr.on('data', (d: Buffer) => {
        out += d.toString('utf8');
      });
      void exited.then(() => reject(new Error(`serve exited: ${out}`)));
    });
    const repo = await newRepo(env, env.alice, { auto_init: true, readme: 'Default' });
    const file = `/repos/${repo.full_name}/contents/README.md`;
    const sha = (await get(file, env.alice.token)).json.sha as string;
    await kept(file, env.alice.token);
    const put = await call(`${base}/api/v1`, 'PUT', file, {
      token: env.alice.token,
      body: { content: b64('elsewhere'), sha, message: 'other process' },
    });
    assert.is(put.status, 200, put.text);
    assert.is(Buffer.from((await get(file, env.alice.token)).json.content, 'base64').toString(), 'elsewhere');
  } finally {
    child.kill('SIGTERM');
    await exited;
  }
});

test('the clock: a snapshot changes when a write ends, whoever wrote, and when a change is announced, by any process', async () => {
  const clock = env.db.db.clock;
  // Two equal snapshots in a row (other databases of the server, other test files, may be writing).
  const stable = async () => {
    for (let i = 0; i < 50; i++) {
      const a = await clock.snapshot();
      if ((await clock.snapshot()) === a) return a;
    }
    assert.unreachable('the snapshot never stood still');
    return '';
  };
  const a = await stable();
  await clock.changed();
  const b = await clock.snapshot();
  assert.is.not(b, a, 'an announced change');
  const url = String(orm().config.get('clientUrl') ?? '');
  if (!process.env.CAIRN__DATABASE__URL) return; // the embedded database admits one process only
  // Another process's clock: a connection of its own, which this process hears nothing from.
  const elsewhere = postgresClock(url);
  const c = new pg.Client({ connectionString: url });
  await c.connect();
  try {
    const before = await stable();
    await elsewhere.changed();
    assert.is.not(await clock.snapshot(), before, 'a change announced by another process');
    await c.query('begin');
    await c.query("update repository set description = description || '' where id = (select min(id) from repository)");
    const open = await stable();
    await c.query('commit');
    assert.is.not(await clock.snapshot(), open, 'the end of a write');
  } finally {
    await c.end();
    await elsewhere.close();
  }
});

test('[PostgreSQL] the clock text names the server: its system identifier and timeline, so a restore or a failover revives no answer', async () => {
  if (!process.env.CAIRN__DATABASE__URL) return; // the embedded database's data has one owner, this process
  const url = String(orm().config.get('clientUrl') ?? '');
  const c = new pg.Client({ connectionString: url });
  await c.connect();
  try {
    const id = (await c.query('select system_identifier::text as i from pg_control_system()')).rows[0].i as string;
    const timeline = String((await c.query('select timeline_id as t from pg_control_checkpoint()')).rows[0].t);
    const text = await env.db.db.clock.snapshot();
    assert.ok(text.startsWith(`${id}/${timeline}/`), text);
  } finally {
    await c.end();
  }
});

test.run();
