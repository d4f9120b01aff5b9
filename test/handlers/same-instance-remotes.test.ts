// No database transaction or connection is held across a network call: a migration, a pull mirror's
// fetch and a push mirror's push may reach this very instance, whose git over HTTP and API then need
// the database while the request that called them waits. The embedded database has one connection;
// on PostgreSQL this file runs with a pool of one (DATABASE__POOL_MAX=1), so a request that held its
// connection across the call would wait for itself.
import fs from 'node:fs';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import pg from 'pg';
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { FederatedUser } from '../../model/federation.ts';
import { Issue } from '../../model/issue.ts';
import { Label } from '../../model/label.ts';
import { Milestone } from '../../model/milestone.ts';
import { Release } from '../../model/release.ts';
import { Repository } from '../../model/repo.ts';
import { openTestDb, startServer, type TestDb, type TestServer } from '../helpers/server.ts';
import { call, type Res } from '../helpers/client.ts';
import { makeUser, uniq, type TestUser } from '../helpers/fixtures.ts';
import { mustGit } from '../helpers/git-cli.ts';

let db: TestDb;
let srv: TestServer;
let alice: TestUser;
let bob: TestUser;

test.before(async () => {
  db = await openTestDb({ DATABASE__POOL_MAX: '1' });
  srv = await startServer(db, { MIGRATIONS__ALLOW_LOCALNETWORKS: 'true' });
  alice = await makeUser(db, srv.api);
  bob = await makeUser(db, srv.api);
});
test.after(async () => {
  await srv.close();
  await db.close();
});

const em = () => db.db.orm.em.fork();
const as = (u: TestUser, method: string, p: string, body?: unknown) => call(srv.api, method, p, { token: u.token, body });
function ok(r: Res, status: number): Res {
  assert.is(r.status, status, r.text);
  return r;
}
const dirOf = (owner: string, name: string) => `${srv.config.repoRoot}/${owner.toLowerCase()}/${name.toLowerCase()}.git`;
const rev = (dir: string, ref: string) => mustGit(null, `--git-dir=${dir}`, 'rev-parse', ref);
const b64 = (s: string) => Buffer.from(s).toString('base64');
/** Entries of the migration spool, where a migration stages its clone (lib/mirrors/mirrors.ts). */
const spooled = () => (fs.existsSync(`${srv.config.repoRoot}/.migrating`) ? fs.readdirSync(`${srv.config.repoRoot}/.migrating`) : []);

/** A public repository of bob's with a commit on main and one on a branch `topic`, and a tag. */
async function bobsRepo(): Promise<{ name: string; full: string; dir: string }> {
  const repo = ok(await as(bob, 'POST', '/user/repos', { name: uniq('src'), auto_init: true }), 201).json;
  ok(
    await as(bob, 'POST', `/repos/${repo.full_name}/contents`, {
      branch: 'main',
      new_branch: 'topic',
      message: 'topic',
      files: [{ operation: 'create', path: 't.txt', content: b64('t\n') }],
    }),
    201,
  );
  ok(await as(bob, 'POST', `/repos/${repo.full_name}/tags`, { tag_name: 'v1', target: 'main' }), 201);
  return { name: repo.name, full: repo.full_name, dir: dirOf(bob.name, repo.name) };
}

test('migrate from a repository of this instance, clone only: 201 with its branches and tags', async () => {
  const src = await bobsRepo();
  const name = uniq('mig');
  const r = ok(
    await as(alice, 'POST', '/repos/migrate', { clone_addr: `${srv.url}/${src.full}.git`, repo_name: name, service: 'git' }),
    201,
  );
  assert.is(r.json.full_name, `${alice.name}/${name}`);
  assert.is(r.json.empty, false);
  const dir = dirOf(alice.name, name);
  for (const ref of ['refs/heads/main', 'refs/heads/topic', 'refs/tags/v1']) assert.is(await rev(dir, ref), await rev(src.dir, ref), ref);
});

test('migrate from a repository of this instance with milestones, labels, issues and releases (service gitea)', async () => {
  const src = await bobsRepo();
  const R = `/repos/${src.full}`;
  const bug = ok(await as(bob, 'POST', `${R}/labels`, { name: 'bug', color: '#ee0701' }), 201).json.id;
  const v1 = ok(await as(bob, 'POST', `${R}/milestones`, { title: 'v1' }), 201).json.id;
  ok(await as(bob, 'POST', `${R}/issues`, { title: 'First', body: 'one', labels: [bug], milestone: v1 }), 201);
  ok(await as(alice, 'POST', `${R}/issues`, { title: 'Second', body: 'two' }), 201);
  ok(await as(alice, 'POST', `${R}/issues/1/comments`, { body: 'a comment' }), 201);
  ok(await as(bob, 'POST', `${R}/releases`, { tag_name: 'v2.0', target_commitish: 'main', name: 'Two' }), 201);
  const name = uniq('imp');
  const r = ok(
    await as(alice, 'POST', '/repos/migrate', {
      clone_addr: `${srv.url}/${src.full}.git`,
      repo_name: name,
      service: 'gitea',
      auth_token: bob.token,
      issues: true,
      labels: true,
      milestones: true,
      releases: true,
    }),
    201,
  );
  assert.is(r.json.open_issues_count, 2);
  assert.is(r.json.release_counter, 1);
  const id = r.json.id as number;
  const e = em();
  assert.equal(
    (await e.find(Label, { repoId: id })).map((l) => l.name),
    ['bug'],
  );
  assert.equal(
    (await e.find(Milestone, { repoId: id })).map((m) => [m.name, m.numIssues]),
    [['v1', 1]],
  );
  assert.equal(
    (await e.find(Release, { repoId: id })).map((x) => x.tagName),
    ['v2.0'],
  );
  // Authors of this very instance stay themselves.
  const issues = await e.find(Issue, { repoId: id }, { orderBy: { index: 'asc' } });
  assert.equal(
    issues.map((i) => [i.index, i.title, i.posterId, i.numComments]),
    [
      [1, 'First', bob.id, 1],
      [2, 'Second', alice.id, 0],
    ],
  );
  const listed = ok(await as(alice, 'GET', `/repos/${alice.name}/${name}/issues/1/comments`), 200);
  assert.equal(
    listed.json.map((c: { body: string; user: { login: string } }) => [c.body, c.user.login]),
    [['a comment', alice.name]],
  );
});

test('a pull mirror of a repository of this instance: created, then synced with a new commit', async () => {
  const src = await bobsRepo();
  const name = uniq('pm');
  const r = ok(await as(alice, 'POST', '/repos/migrate', { clone_addr: `${srv.url}/${src.full}.git`, repo_name: name, mirror: true }), 201);
  assert.is(r.json.mirror, true);
  const dir = dirOf(alice.name, name);
  assert.is(await rev(dir, 'refs/heads/main'), await rev(src.dir, 'refs/heads/main'));
  ok(
    await as(bob, 'POST', `/repos/${src.full}/contents`, {
      branch: 'main',
      message: 'later',
      files: [{ operation: 'create', path: 'later.txt', content: b64('later\n') }],
    }),
    201,
  );
  // mirror_updated is given in whole seconds: the sync comes in a later second than the creation.
  await new Promise((resolve) => setTimeout(resolve, 1100));
  ok(await as(alice, 'POST', `/repos/${alice.name}/${name}/mirror-sync`), 200);
  assert.is(await rev(dir, 'refs/heads/main'), await rev(src.dir, 'refs/heads/main'));
  const synced = ok(await as(alice, 'GET', `/repos/${alice.name}/${name}`), 200).json;
  assert.not.equal(synced.mirror_updated, r.json.mirror_updated);
});

test('a push mirror to a repository of this instance: created, then synced', async () => {
  const src = await bobsRepo();
  const target = ok(await as(alice, 'POST', '/user/repos', { name: uniq('target') }), 201).json;
  const base = `/repos/${src.full}/push_mirrors`;
  const created = ok(
    await as(bob, 'POST', base, {
      remote_address: `${srv.url}/${target.full_name}.git`,
      remote_username: alice.name,
      remote_password: alice.token,
      interval: '8h',
    }),
    200,
  );
  ok(await as(bob, 'POST', `/repos/${src.full}/push_mirrors-sync`), 200);
  const dir = dirOf(alice.name, target.name);
  for (const ref of ['refs/heads/main', 'refs/heads/topic', 'refs/tags/v1']) assert.is(await rev(dir, ref), await rev(src.dir, ref), ref);
  const after = ok(await as(bob, 'GET', `${base}/${created.json.remote_name}`), 200).json;
  assert.is(after.last_error, '');
  assert.not.equal(after.last_update, null);
  // The target learnt of the push: it is no longer empty.
  assert.is(ok(await as(alice, 'GET', `/repos/${target.full_name}`), 200).json.empty, false);
});

test('POST /user/activitypub/follow of a person of this instance: fetched, followed and answered (204)', async () => {
  // The Follow is signed and delivered to this very instance, whose inbox fetches alice's actor (and
  // the instance actor) from here again to verify it.
  const fed = await startServer(db, { FEDERATION__ENABLED: 'true', MIGRATIONS__ALLOW_LOCALNETWORKS: 'true' });
  try {
    const target = `${fed.api}/activitypub/user-id/${bob.id}`;
    const r = await call(fed.api, 'POST', '/user/activitypub/follow', { token: alice.token, body: { target } });
    assert.is(r.status, 204, r.text);
    const standIn = await em().findOneOrFail(FederatedUser, { externalId: target });
    assert.ok(standIn.userId > 0);
  } finally {
    await fed.close();
  }
});

/**
 * A proxy in front of this instance that holds the first request whose path matches until released:
 * a source that is slow to answer.
 */
async function slowProxy(holds: RegExp) {
  const up = new URL(srv.url);
  let held: (() => void) | null = null;
  let arrived!: () => void;
  const waiting = new Promise<void>((resolve) => {
    arrived = resolve;
  });
  const server = http.createServer((req, res) => {
    const forward = () => {
      const out = http.request(
        { host: up.hostname, port: up.port, method: req.method, path: req.url, headers: { ...req.headers, host: up.host } },
        (r) => {
          res.writeHead(r.statusCode ?? 502, r.headers);
          r.pipe(res);
        },
      );
      req.pipe(out);
    };
    if (held === null && holds.test(req.url ?? '')) {
      held = forward;
      arrived();
      return;
    }
    forward();
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    /** Settles once the held request came. */
    waiting,
    release: () => held?.(),
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

/** Sessions of this test's database inside a transaction (PostgreSQL only; null on the embedded database). */
async function openTransactions(): Promise<number | null> {
  const url = process.env.CAIRN__DATABASE__URL;
  if (!url) return null;
  const c = new pg.Client({ connectionString: url });
  await c.connect();
  try {
    const name = (await db.db.orm.em.getConnection().execute<{ d: string }[]>('select current_database() as d'))[0]!.d;
    const r = await c.query<{ n: string }>(
      "select count(*) as n from pg_stat_activity where datname = $1 and state like 'idle in transaction%'",
      [name],
    );
    return Number(r.rows[0]!.n);
  } finally {
    await c.end();
  }
}

/** Whether a request answers within `ms`: it needs the database, so it waits while someone holds it. */
async function answersWithin(ms: number, u: TestUser): Promise<boolean> {
  const timer = new Promise<false>((resolve) => setTimeout(() => resolve(false), ms).unref());
  const answer = call(srv.api, 'POST', '/user/repos', { token: u.token, body: { name: uniq('probe') } }).then((r) => r.status === 201);
  return Promise.race([answer, timer]);
}

test('while the source is slow to answer, the migrating request holds no transaction and no connection', async () => {
  const src = await bobsRepo();
  ok(await as(bob, 'POST', `/repos/${src.full}/labels`, { name: 'slow', color: '#00aa00' }), 201);
  for (const [what, holds] of [
    ['the clone', /\/info\/refs\?service=git-upload-pack/],
    ['the API import', /\/labels\?/],
  ] as const) {
    const proxy = await slowProxy(holds);
    try {
      const name = uniq('slow');
      const migrating = as(alice, 'POST', '/repos/migrate', {
        clone_addr: `${proxy.url}/${src.full}.git`,
        repo_name: name,
        service: 'gitea',
        labels: true,
      });
      // Awaited below; a failed assertion before must not leave its rejection unhandled.
      migrating.catch(() => undefined);
      await proxy.waiting;
      assert.ok(await answersWithin(10_000, bob), `${what}: another write is answered while the source is slow`);
      const open = await openTransactions();
      if (open !== null) assert.is(open, 0, `${what}: no session of the database is idle in a transaction`);
      // What a process killed now would leave: no rows, only the staged clone, which the next start removes (lib/maintenance/leftovers.ts).
      assert.is(await em().count(Repository, { lowerName: name.toLowerCase() }), 0, `${what}: nothing of the migration is visible yet`);
      assert.not.ok(fs.existsSync(dirOf(alice.name, name)), `${what}: no directory in the repository's place yet`);
      assert.is(spooled().length, 1, `${what}: the clone is staged`);
      proxy.release();
      const r = ok(await migrating, 201);
      assert.equal(
        (await em().find(Label, { repoId: r.json.id })).map((l) => l.name),
        ['slow'],
      );
      assert.equal(spooled(), [], `${what}: the staging directory is gone`);
    } finally {
      await proxy.close();
    }
  }
});

test('a name taken while the source is slow: 409, the staged clone is removed and the other repository is untouched', async () => {
  const src = await bobsRepo();
  const proxy = await slowProxy(/\/info\/refs\?service=git-upload-pack/);
  try {
    const name = uniq('taken');
    const migrating = as(alice, 'POST', '/repos/migrate', { clone_addr: `${proxy.url}/${src.full}.git`, repo_name: name, wiki: true });
    migrating.catch(() => undefined);
    await proxy.waiting;
    const other = ok(await as(alice, 'POST', '/user/repos', { name, auto_init: true }), 201).json;
    const head = await rev(dirOf(alice.name, name), 'refs/heads/main');
    proxy.release();
    const r = await migrating;
    assert.is(r.status, 409, r.text);
    assert.is(r.json.message, 'The repository with the same name already exists.');
    assert.equal(spooled(), []);
    assert.equal(
      (await em().find(Repository, { lowerName: name.toLowerCase() })).map((x) => x.id),
      [other.id],
    );
    assert.is(await rev(dirOf(alice.name, name), 'refs/heads/main'), head, 'the files of the repository that took the name stay');
  } finally {
    await proxy.close();
  }
});

test.run();
