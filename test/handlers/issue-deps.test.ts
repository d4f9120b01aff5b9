// Issue dependencies and blocks (Forgejo's routers/api/v1/repo/issue_dependency.go).
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { newRepo, setup, valid, validList, type Env } from './repo-setup.ts';
import { makeToken, type TestUser } from '../helpers/fixtures.ts';
import { createIssue } from '../../lib/issues/issues.ts';
import { PENDING } from '../../handlers/pending.ts';
import { Repository } from '../../model/repo.ts';
import { Comment, CommentType, IssueDependency } from '../../model/issue.ts';

let env: Env;
test.before(async () => {
  env = await setup();
});
test.after(async () => {
  await env.close();
});

type Repo = Awaited<ReturnType<typeof newRepo>>;
interface Made {
  index: number;
  id: number;
  repo: Repo;
}
const em = () => env.db.db.orm.em.fork();

/** A new issue of `repo` by `poster`: through the API once issue creation exists, else the library. */
async function newIssue(repo: Repo, poster: TestUser, title = 'work'): Promise<Made> {
  if (!(PENDING as readonly string[]).includes('issues.create')) {
    const r = await env.as(poster, 'POST', `/repos/${repo.full_name}/issues`, { title });
    assert.is(r.status, 201, r.text);
    return { index: r.json.number, id: r.json.id, repo };
  }
  const m = em();
  const record = await m.findOneOrFail(Repository, { id: repo.id });
  const issue = await createIssue(m, { repo: record, posterId: poster.id, title });
  return { index: issue.index, id: issue.id, repo };
}

const meta = (i: Made) => ({ owner: i.repo.owner.login, repo: i.repo.name, index: i.index });
const at = (i: Made, what: 'dependencies' | 'blocks') => `/repos/${i.repo.full_name}/issues/${i.index}/${what}`;
const edges = async (ids: number[]) =>
  (await em().find(IssueDependency, { issueId: { $in: ids } }, { orderBy: { id: 'asc' } })).map((d) => [d.issueId, d.dependencyId]);
const events = (issueId: number, type: number) => em().find(Comment, { issueId, type }, { orderBy: { id: 'asc' } });
const numbers = (r: { json: any }) => r.json.map((i: any) => i.number);

async function setTracker(repo: Repo, owner: TestUser, dependencies: boolean) {
  const r = await env.as(owner, 'PATCH', `/repos/${repo.full_name}`, {
    internal_tracker: { enable_time_tracker: true, allow_only_contributors_to_track_time: true, enable_issue_dependencies: dependencies },
  });
  assert.is(r.status, 200, r.text);
}

test('dependencies: 201 with the path issue, listed both ways, add_dependency on both issues', async () => {
  const { alice } = env;
  const repo = await newRepo(env, alice);
  const a = await newIssue(repo, alice, 'a');
  const b = await newIssue(repo, alice, 'b');
  const r = await env.as(alice, 'POST', at(a, 'dependencies'), meta(b));
  assert.is(r.status, 201, r.text);
  valid('Issue', r.json);
  assert.equal([r.json.number, r.json.title], [a.index, 'a']);
  assert.equal(await edges([a.id, b.id]), [[a.id, b.id]]);
  assert.equal(
    (await events(a.id, CommentType.addDependency)).map((c) => [c.posterId, c.dependentIssueId]),
    [[alice.id, b.id]],
  );
  assert.equal(
    (await events(b.id, CommentType.addDependency)).map((c) => [c.posterId, c.dependentIssueId]),
    [[alice.id, a.id]],
  );

  const deps = await env.as(alice, 'GET', at(a, 'dependencies'));
  validList('Issue', deps);
  assert.equal(numbers(deps), [b.index]);
  const blocks = await env.as(alice, 'GET', at(b, 'blocks'));
  validList('Issue', blocks);
  assert.equal(numbers(blocks), [a.index]);
  assert.equal((await env.as(alice, 'GET', at(a, 'blocks'))).json, []);
  assert.equal((await env.as(undefined, 'GET', at(a, 'dependencies'))).json.length, 1, 'anonymous readers of a public repository');
});

test('blocks: the body issue depends on the path issue; 201 with the path issue; removal answers 200', async () => {
  const { alice } = env;
  const repo = await newRepo(env, alice);
  const a = await newIssue(repo, alice);
  const b = await newIssue(repo, alice);
  const r = await env.as(alice, 'POST', at(a, 'blocks'), meta(b));
  assert.is(r.status, 201, r.text);
  valid('Issue', r.json);
  assert.is(r.json.number, a.index);
  assert.equal(await edges([a.id, b.id]), [[b.id, a.id]]);
  assert.equal(numbers(await env.as(alice, 'GET', at(b, 'dependencies'))), [a.index]);

  const del = await env.as(alice, 'DELETE', at(a, 'blocks'), meta(b));
  assert.is(del.status, 200, del.text);
  valid('Issue', del.json);
  assert.is(del.json.number, a.index);
  assert.equal(await edges([a.id, b.id]), []);
  assert.equal(
    (await events(b.id, CommentType.removeDependency)).map((c) => c.dependentIssueId),
    [a.id],
  );
  assert.equal(
    (await events(a.id, CommentType.removeDependency)).map((c) => c.dependentIssueId),
    [b.id],
  );
  const again = await env.as(alice, 'DELETE', at(a, 'blocks'), meta(b));
  assert.is(again.status, 404, again.text);
  assert.is((await events(a.id, CommentType.removeDependency)).length, 1);
});

test('remove dependency: 200 with the path issue, remove_dependency on both; unknown link 404', async () => {
  const { alice } = env;
  const repo = await newRepo(env, alice);
  const a = await newIssue(repo, alice);
  const b = await newIssue(repo, alice);
  assert.is((await env.as(alice, 'DELETE', at(a, 'dependencies'), meta(b))).status, 404);
  await env.as(alice, 'POST', at(a, 'dependencies'), meta(b));
  const del = await env.as(alice, 'DELETE', at(a, 'dependencies'), meta(b));
  assert.is(del.status, 200, del.text);
  valid('Issue', del.json);
  assert.is(del.json.number, a.index);
  assert.equal(await edges([a.id]), []);
  assert.equal(
    (await events(a.id, CommentType.removeDependency)).map((c) => c.dependentIssueId),
    [b.id],
  );
  assert.equal((await env.as(alice, 'GET', at(a, 'dependencies'))).json, []);
});

test('no self-dependency (422), no duplicate or cycle of any length (409); nothing written', async () => {
  const { alice } = env;
  const repo = await newRepo(env, alice);
  const [a, b, c] = [await newIssue(repo, alice), await newIssue(repo, alice), await newIssue(repo, alice)];
  const self = await env.as(alice, 'POST', at(a, 'dependencies'), meta(a));
  assert.is(self.status, 422, self.text);
  assert.is((await env.as(alice, 'POST', at(a, 'blocks'), meta(a))).status, 422);
  assert.is((await env.as(alice, 'POST', at(a, 'dependencies'), meta(b))).status, 201);
  assert.is((await env.as(alice, 'POST', at(b, 'dependencies'), meta(c))).status, 201);
  const before = await edges([a.id, b.id, c.id]);
  const eventsBefore = (await events(a.id, CommentType.addDependency)).length + (await events(c.id, CommentType.addDependency)).length;

  const dup = await env.as(alice, 'POST', at(a, 'dependencies'), meta(b));
  assert.is(dup.status, 409, dup.text);
  assert.match(dup.json.message, 'issue dependency does already exist');
  assert.is((await env.as(alice, 'POST', at(b, 'blocks'), meta(a))).status, 409, 'the same link from the other side');
  const pair = await env.as(alice, 'POST', at(b, 'dependencies'), meta(a));
  assert.is(pair.status, 409);
  assert.match(pair.json.message, 'circular dependencies exists');
  const longer = await env.as(alice, 'POST', at(c, 'dependencies'), meta(a));
  assert.is(longer.status, 409, longer.text);
  assert.is((await env.as(alice, 'POST', at(a, 'blocks'), meta(c))).status, 409);

  assert.equal(await edges([a.id, b.id, c.id]), before);
  assert.is((await events(a.id, CommentType.addDependency)).length + (await events(c.id, CommentType.addDependency)).length, eventsBefore);
});

test('permissions: readers get 403, outsiders of a private repository 404, anonymous 401, archived 423; nothing written', async () => {
  const { alice, bob } = env;
  const repo = await newRepo(env, alice);
  const a = await newIssue(repo, alice);
  const b = await newIssue(repo, bob);
  for (const [method, what] of [
    ['POST', 'dependencies'],
    ['DELETE', 'dependencies'],
    ['POST', 'blocks'],
    ['DELETE', 'blocks'],
  ] as const) {
    const r = await env.as(bob, method, at(a, what), meta(b));
    assert.is(r.status, 403, `${method} ${what} ${r.text}`);
    assert.is((await env.as(undefined, method, at(a, what), meta(b))).status, 401);
  }
  assert.equal(await edges([a.id, b.id]), []);
  assert.equal(await events(a.id, CommentType.addDependency), []);

  const priv = await newRepo(env, alice, { private: true });
  const p1 = await newIssue(priv, alice);
  const p2 = await newIssue(priv, alice);
  assert.is((await env.as(bob, 'POST', at(p1, 'dependencies'), meta(p2))).status, 404);
  assert.is((await env.as(bob, 'GET', at(p1, 'dependencies'))).status, 404);

  assert.is((await env.as(alice, 'POST', at(a, 'dependencies'), meta(b))).status, 201);
  assert.is((await env.as(alice, 'PATCH', `/repos/${repo.full_name}`, { archived: true })).status, 200);
  const archived = await env.as(alice, 'DELETE', at(a, 'dependencies'), meta(b));
  assert.is(archived.status, 423, archived.text);
  const blocksArchived = await env.as(alice, 'DELETE', at(b, 'blocks'), meta(a));
  assert.is(blocksArchived.status, 404, 'blocks: the dependent issue lives in an archived repository (Forgejo: 404)');
  assert.equal(await edges([a.id]), [[a.id, b.id]]);
  assert.is((await env.as(alice, 'GET', at(a, 'dependencies'))).json.length, 1);
});

test('dependencies off in the repository: 404 on its dependency routes, its blocks list still answers', async () => {
  const { alice } = env;
  const repo = await newRepo(env, alice);
  const a = await newIssue(repo, alice);
  const b = await newIssue(repo, alice);
  assert.is((await env.as(alice, 'POST', at(a, 'dependencies'), meta(b))).status, 201);
  await setTracker(repo, alice, false);
  assert.is((await env.as(alice, 'GET', at(a, 'dependencies'))).status, 404);
  assert.is((await env.as(alice, 'POST', at(b, 'dependencies'), meta(a))).status, 404);
  assert.is((await env.as(alice, 'DELETE', at(a, 'dependencies'), meta(b))).status, 404);
  assert.is((await env.as(alice, 'POST', at(a, 'blocks'), meta(b))).status, 404);
  assert.equal(numbers(await env.as(alice, 'GET', at(b, 'blocks'))), [a.index]);
  assert.equal(await edges([a.id, b.id]), [[a.id, b.id]]);
});

test('bad bodies: 422 on wrong types; unknown repository or issue 404; nothing written', async () => {
  const { alice } = env;
  const repo = await newRepo(env, alice);
  const a = await newIssue(repo, alice);
  const b = await newIssue(repo, alice);
  for (const body of [{ ...meta(b), index: 'x' }, { ...meta(b), owner: 5 }, { ...meta(b), index: 1.5 }, [1]]) {
    const r = await env.as(alice, 'POST', at(a, 'dependencies'), body);
    assert.is(r.status, 422, JSON.stringify(body) + r.text);
  }
  for (const body of [
    { ...meta(b), index: 999 },
    { ...meta(b), repo: 'no-such-repo' },
    { index: b.index },
    { ...meta(b), index: 0 },
    { ...meta(b), index: -1 },
  ]) {
    const r = await env.as(alice, 'POST', at(a, 'dependencies'), body);
    assert.is(r.status, 404, JSON.stringify(body) + r.text);
  }
  assert.is((await env.as(alice, 'POST', `/repos/${repo.full_name}/issues/999/dependencies`, meta(b))).status, 404);
  assert.equal(await edges([a.id, b.id]), []);
  assert.equal(await events(a.id, CommentType.addDependency), []);
});

test('spec, token kinds: cross-repository links list only issues the caller (and the token) can read', async () => {
  const { alice, bob } = env;
  const pub = await newRepo(env, alice);
  const priv = await newRepo(env, alice, { private: true });
  const a = await newIssue(pub, alice);
  const hidden = await newIssue(priv, alice, 'secret');
  const open = await newIssue(pub, alice, 'visible');
  assert.is((await env.as(alice, 'POST', at(a, 'dependencies'), meta(hidden))).status, 201);
  assert.is((await env.as(alice, 'POST', at(a, 'dependencies'), meta(open))).status, 201);

  const mine = await env.as(alice, 'GET', at(a, 'dependencies'));
  validList('Issue', mine);
  assert.equal(
    mine.json.map((i: any) => i.repository.full_name),
    [pub.full_name, priv.full_name],
    'own repository first',
  );
  const theirs = await env.as(bob, 'GET', at(a, 'dependencies'));
  assert.equal([numbers(theirs), theirs.headers.get('x-total-count')], [[open.index], '1']);
  const publicOnly = await makeToken(env.srv.api, alice, ['public-only', 'read:issue']);
  assert.equal(numbers(await env.as(publicOnly, 'GET', at(a, 'dependencies'))), [open.index]);

  // bob cannot reach the private issue, so he cannot link his own issue to it either.
  const bobs = await newRepo(env, bob);
  const x = await newIssue(bobs, bob);
  assert.is((await env.as(bob, 'POST', at(x, 'dependencies'), meta(hidden))).status, 404);
  assert.is((await env.as(bob, 'POST', at(x, 'blocks'), meta(hidden))).status, 404);
  assert.equal(await edges([x.id, hidden.id]), []);
  // A link into a public repository bob only reads: he may depend on it, not make it depend on his.
  assert.is((await env.as(bob, 'POST', at(x, 'dependencies'), meta(open))).status, 201);
  assert.is((await env.as(bob, 'POST', at(x, 'blocks'), meta(open))).status, 403);
  const blocked = await env.as(bob, 'GET', at(open, 'blocks'));
  assert.equal(
    blocked.json.map((i: any) => `${i.repository.full_name}#${i.number}`),
    [`${pub.full_name}#${a.index}`, `${bobs.full_name}#${x.index}`],
  );
});

test('lists page through the readable issues with X-Total-Count and Link', async () => {
  const { alice } = env;
  const repo = await newRepo(env, alice);
  const a = await newIssue(repo, alice);
  const deps = [await newIssue(repo, alice), await newIssue(repo, alice), await newIssue(repo, alice)];
  for (const d of deps) assert.is((await env.as(alice, 'POST', at(a, 'dependencies'), meta(d))).status, 201);
  const p1 = await env.as(alice, 'GET', `${at(a, 'dependencies')}?limit=2`);
  assert.equal([p1.json.length, p1.headers.get('x-total-count')], [2, '3']);
  assert.match(p1.headers.get('link') ?? '', 'rel="next"');
  const p2 = await env.as(alice, 'GET', `${at(a, 'dependencies')}?limit=2&page=2`);
  assert.is(p2.json.length, 1);
  assert.equal(new Set([...numbers(p1), ...numbers(p2)]), new Set(deps.map((d) => d.index)));
});

test.run();
