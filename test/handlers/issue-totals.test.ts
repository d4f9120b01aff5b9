// X-Total-Count of GET {R}/issues. An open list that filters on nothing else reads its total from the
// repository's counters (lib/issues/query.ts openTotalSql); these tests pin that total against a
// real count in the database, for every type filter, after each write that moves an issue or a pull in
// or out of the open list, and against the same list with a filter that makes the server count.
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { setup, newOrg, newRepo, type Env } from './repo-setup.ts';
import type { TestUser } from '../helpers/fixtures.ts';

let env: Env;
const b64 = (s: string) => Buffer.from(s).toString('base64');

test.before(async () => {
  env = await setup();
});
test.after(async () => {
  await env.close();
});

async function ok(p: Promise<{ status: number; text: string; json: unknown; headers: Headers }>, status: number) {
  const r = await p;
  assert.is(r.status, status, r.text);
  return r;
}

/** A new branch holding one more file than main, through the contents API. */
async function branch(u: TestUser, full: string, name: string) {
  const files = [{ operation: 'create', path: `${name}.txt`, content: b64(name) }];
  await ok(env.as(u, 'POST', `/repos/${full}/contents`, { branch: 'main', new_branch: name, message: name, files }), 201);
}

async function openPull(u: TestUser, full: string, head: string): Promise<number> {
  await branch(u, full, head);
  return ((await ok(env.as(u, 'POST', `/repos/${full}/pulls`, { head, base: 'main', title: head }), 201)).json as { number: number })
    .number;
}

async function openIssue(u: TestUser, full: string, title: string): Promise<number> {
  return ((await ok(env.as(u, 'POST', `/repos/${full}/issues`, { title }), 201)).json as { number: number }).number;
}

/** What the database holds: open issues and pulls of the repository named `full`. */
async function counted(full: string, kind: '' | 'issues' | 'pulls'): Promise<number> {
  const [owner, name] = full.split('/');
  const pull = kind === 'pulls' ? 'and i.is_pull' : kind === 'issues' ? 'and not i.is_pull' : '';
  const rows = await env.db.db.orm.em
    .fork()
    .getConnection()
    .execute(
      `select count(*)::int as n from issue i join repository r on r.id = i.repo_id
      where r.owner_name = ? and r.lower_name = ? and not i.is_closed ${pull}`,
      [owner, name.toLowerCase()],
    );
  return Number(rows[0].n);
}

/**
 * For each type filter: the list's X-Total-Count, its page 1 (limit 1, so Link shows the last page),
 * and the same with a `since` at the epoch (every issue matches, but the server must count) agree
 * with the database.
 */
async function totalsAgree(u: TestUser, full: string, expected: Record<'' | 'issues' | 'pulls', number>) {
  for (const kind of ['', 'issues', 'pulls'] as const) {
    const q = `state=open&limit=1${kind ? `&type=${kind}` : ''}`;
    const fromCounters = await ok(env.as(u, 'GET', `/repos/${full}/issues?${q}`), 200);
    const counting = await ok(env.as(u, 'GET', `/repos/${full}/issues?${q}&since=1970-01-01T00:00:00Z`), 200);
    const n = await counted(full, kind);
    assert.is(n, expected[kind], `database, type=${kind}`);
    assert.is(fromCounters.headers.get('X-Total-Count'), String(n), `counters, type=${kind}`);
    assert.is(counting.headers.get('X-Total-Count'), String(n), `count, type=${kind}`);
    assert.equal(fromCounters.json, counting.json, `page, type=${kind}`);
    const last = (fromCounters.headers.get('Link') ?? '').match(/page=(\d+)[^>]*>; rel="last"/)?.[1];
    assert.is(last, n > 1 ? String(n) : undefined, `Link, type=${kind}`);
  }
}

test('X-Total-Count of an open list equals a real count after creating, closing, reopening, deleting, merging and transferring', async () => {
  const { alice } = env;
  const repo = await newRepo(env, alice, { auto_init: true });
  let full = repo.full_name;
  await totalsAgree(alice, full, { '': 0, issues: 0, pulls: 0 });

  const one = await openIssue(alice, full, 'one');
  const two = await openIssue(alice, full, 'two');
  await openIssue(alice, full, 'three');
  const pullA = await openPull(alice, full, 'a');
  const pullB = await openPull(alice, full, 'b');
  await openPull(alice, full, 'c');
  await totalsAgree(alice, full, { '': 6, issues: 3, pulls: 3 });

  await ok(env.as(alice, 'PATCH', `/repos/${full}/issues/${one}`, { state: 'closed' }), 201);
  await ok(env.as(alice, 'PATCH', `/repos/${full}/pulls/${pullA}`, { state: 'closed' }), 201);
  await totalsAgree(alice, full, { '': 4, issues: 2, pulls: 2 });

  await ok(env.as(alice, 'PATCH', `/repos/${full}/issues/${one}`, { state: 'open' }), 201);
  await ok(env.as(alice, 'PATCH', `/repos/${full}/pulls/${pullA}`, { state: 'open' }), 201);
  await totalsAgree(alice, full, { '': 6, issues: 3, pulls: 3 });

  await ok(env.as(alice, 'DELETE', `/repos/${full}/issues/${two}`), 204);
  await ok(env.as(alice, 'POST', `/repos/${full}/pulls/${pullA}/merge`, { Do: 'merge' }), 200);
  await totalsAgree(alice, full, { '': 4, issues: 2, pulls: 2 });

  // Deleting a pull's head branch closes the pull.
  await ok(env.as(alice, 'DELETE', `/repos/${full}/branches/b`), 204);
  assert.is(((await ok(env.as(alice, 'GET', `/repos/${full}/pulls/${pullB}`), 200)).json as { state: string }).state, 'closed');
  await totalsAgree(alice, full, { '': 3, issues: 2, pulls: 1 });

  // A transfer moves the repository with its issues and counters.
  const org = await newOrg(env, alice);
  await ok(env.as(alice, 'POST', `/repos/${full}/transfer`, { new_owner: org.name }), 202);
  full = `${org.name}/${full.split('/')[1]}`;
  await openIssue(alice, full, 'four');
  await totalsAgree(alice, full, { '': 4, issues: 3, pulls: 1 });
});

test('a caller who reads only the issues unit sees only issues in an open list without type, and their count', async () => {
  const { alice, bob } = env;
  const repo = await newRepo(env, alice, { auto_init: true });
  const full = repo.full_name;
  await openIssue(alice, full, 'one');
  await openPull(alice, full, 'p');
  await ok(env.as(alice, 'PATCH', `/repos/${full}`, { has_pull_requests: false }), 200);
  const r = await ok(env.as(bob, 'GET', `/repos/${full}/issues?state=open`), 200);
  assert.is(r.headers.get('X-Total-Count'), '1');
  assert.equal(
    (r.json as { pull_request: unknown }[]).map((i) => i.pull_request ?? null),
    [null],
  );
});

test.run();
