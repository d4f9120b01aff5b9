// Webhook records at repository, organization, user and instance level (spec: Events 3, WH and GH
// guards; forgejo-facts 11.4), and the repository's Git hooks (stored, never run).
import fs from 'node:fs';
import path from 'node:path';
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { Webhook } from '../../model/webhook.ts';
import { startServer, type TestServer } from '../helpers/server.ts';
import { call } from '../helpers/client.ts';
import { cloneUrl, commitFiles, git, mustGit, workDir } from '../helpers/git-cli.ts';
import { checked, gitDir, newOrg, newRepo, setup, valid, validList, type Env } from './repo-setup.ts';
import { makeUser, type TestUser } from '../helpers/fixtures.ts';

let env: Env;
let noHooks: TestServer;
let gitHooks: TestServer;
test.before(async () => {
  env = await setup();
  noHooks = await startServer(env.db, { SECURITY__DISABLE_WEBHOOKS: 'true' });
  gitHooks = await startServer(env.db, { SECURITY__DISABLE_GIT_HOOKS: 'false' });
});
test.after(async () => {
  await noHooks.close();
  await gitHooks.close();
  await env.close();
});

const on = (srv: TestServer) => async (u: TestUser, method: string, p: string, body?: unknown) =>
  checked(await call(srv.api, method, p, { token: u.token, body }));
const SECRET = 'very-secret-value-42';
const hookBody = (extra: Record<string, unknown> = {}) => ({
  type: 'forgejo',
  config: { url: 'http://hooks.example.com/in', content_type: 'json', secret: SECRET },
  ...extra,
});

async function countHooks(where: object): Promise<number> {
  return env.db.db.orm.em.fork().count(Webhook, where);
}

test('repository hooks: create (active defaults to false, push by default), list, get, edit, delete; the secret never comes back', async () => {
  const repo = await newRepo(env, env.alice);
  const base = `/repos/${repo.full_name}/hooks`;
  const created = await env.as(env.alice, 'POST', base, hookBody({ branch_filter: 'main', authorization_header: 'Bearer abc' }));
  assert.is(created.status, 201, created.text);
  valid('Hook', created.json);
  assert.is(created.json.active, false);
  assert.is(created.json.type, 'forgejo');
  assert.equal(created.json.events, ['push']);
  assert.equal(created.json.config, { url: 'http://hooks.example.com/in', content_type: 'json' });
  assert.is(created.json.url, 'http://hooks.example.com/in');
  assert.is(created.json.content_type, 'json');
  assert.is(created.json.branch_filter, 'main');
  assert.is(created.json.authorization_header, '');
  assert.not.match(created.text, SECRET);
  assert.not.match(created.text, 'Bearer abc');
  // Stored sealed, not in clear.
  const row = await env.db.db.orm.em
    .fork()
    .findOneOrFail(Webhook, { id: created.json.id }, { populate: ['secret', 'authorizationHeader'] });
  assert.ok(row.secret !== '' && !row.secret.includes(SECRET));
  assert.ok(row.authorizationHeader !== '' && !row.authorizationHeader.includes('abc'));

  const listed = await env.as(env.alice, 'GET', base);
  assert.is(listed.status, 200);
  validList('Hook', listed);
  assert.equal(
    listed.json.map((h: { id: number }) => h.id),
    [created.json.id],
  );
  assert.is(listed.headers.get('x-total-count'), '1');
  assert.not.match(listed.text, SECRET);

  const got = await env.as(env.alice, 'GET', `${base}/${created.json.id}`);
  assert.is(got.status, 200);
  valid('Hook', got.json);
  assert.not.match(got.text, SECRET);

  const edited = await env.as(env.alice, 'PATCH', `${base}/${created.json.id}`, {
    active: true,
    events: ['issues', 'pull_request_review'],
    config: { content_type: 'form' },
  });
  assert.is(edited.status, 200, edited.text);
  valid('Hook', edited.json);
  assert.is(edited.json.active, true);
  assert.is(edited.json.content_type, 'form');
  assert.equal(edited.json.events, [
    'issues',
    'issue_assign',
    'issue_label',
    'issue_milestone',
    'issue_comment',
    'pull_request_review_approved',
    'pull_request_review_rejected',
    'pull_request_review_comment',
  ]);
  // As in Forgejo, an edit replaces the branch filter with what it carries.
  assert.is(edited.json.branch_filter, '');

  const only = await env.as(env.alice, 'PATCH', `${base}/${created.json.id}`, { events: ['issues_only', 'create'] });
  assert.equal(only.json.events, ['create', 'issues']);

  assert.is((await env.as(env.alice, 'DELETE', `${base}/${created.json.id}`)).status, 204);
  assert.is((await env.as(env.alice, 'GET', `${base}/${created.json.id}`)).status, 404);
  assert.is((await env.as(env.alice, 'DELETE', `${base}/${created.json.id}`)).status, 404);
  assert.is((await env.as(env.alice, 'GET', `${base}/abc`)).status, 404);
});

test('create and edit validation answer 422 with Forgejo messages, and nothing is stored', async () => {
  const repo = await newRepo(env, env.alice);
  const base = `/repos/${repo.full_name}/hooks`;
  const cases: [unknown, string][] = [
    [{ type: 'forgejo', config: { content_type: 'json' } }, 'Missing config option: url'],
    [{ type: 'forgejo', config: { url: 'http://x.example.com/' } }, 'Missing config option: content_type'],
    [{ type: 'forgejo', config: { url: 'http://x.example.com/', content_type: 'xml' } }, 'Invalid content type'],
    [{ type: 'forgejo', config: { url: 'not a url', content_type: 'json' } }, 'Invalid url'],
    [{ type: 'forgejo', config: { url: 'ftp://x.example.com/', content_type: 'json' } }, 'Invalid url'],
    [
      { type: 'forgejo', config: { url: 'http://x.example.com/', content_type: 'json', is_system_webhook: 'maybe' } },
      'Invalid is_system_webhook value',
    ],
    [{ type: 'slack', config: { url: 'http://x.example.com/', content_type: 'json' } }, 'Missing config option: channel'],
  ];
  for (const [body, message] of cases) {
    const r = await env.as(env.alice, 'POST', base, body);
    assert.is(r.status, 422, `${JSON.stringify(body)} ${r.text}`);
    assert.is(r.json.message, message);
  }
  const badType = await env.as(env.alice, 'POST', base, {
    type: 'carrier-pigeon',
    config: { url: 'http://x.example.com/', content_type: 'json' },
  });
  assert.is(badType.status, 422, badType.text);
  assert.is(badType.json.message, 'Invalid hook type: carrier-pigeon');
  assert.is(await countHooks({ repoId: repo.id }), 0);
  const matrix = await env.as(env.alice, 'POST', base, {
    type: 'matrix',
    config: {
      url: 'http://x.example.com/',
      content_type: 'json',
      homeserver_url: 'http://m.example.com',
      room_id: '!r:m',
      message_type: '1',
    },
  });
  assert.ok(
    matrix.status === 201 || (matrix.status === 422 && matrix.json.message.startsWith('Missing config option')),
    `matrix is a known type: ${matrix.text}`,
  );
  if (matrix.status === 201) assert.is((await env.as(env.alice, 'DELETE', `${base}/${matrix.json.id}`)).status, 204);

  const ok = await env.as(env.alice, 'POST', base, hookBody());
  assert.is(ok.status, 201);
  const bad = await env.as(env.alice, 'PATCH', `${base}/${ok.json.id}`, { config: { url: 'javascript:alert(1)' } });
  assert.is(bad.status, 422);
  assert.is(bad.json.message, 'Invalid url');
  const ct = await env.as(env.alice, 'PATCH', `${base}/${ok.json.id}`, { config: { content_type: 'yaml' } });
  assert.is(ct.json.message, 'Invalid content type');
  assert.is((await env.as(env.alice, 'GET', `${base}/${ok.json.id}`)).json.config.url, 'http://hooks.example.com/in');
});

test('repository hooks need repository admin (403), a private repository is 404 to others, and webhooks can be switched off (403)', async () => {
  const pub = await newRepo(env, env.alice);
  const priv = await newRepo(env, env.alice, { private: true });
  const created = await env.as(env.alice, 'POST', `/repos/${pub.full_name}/hooks`, hookBody());
  assert.is(created.status, 201);
  const denied = await env.as(env.bob, 'GET', `/repos/${pub.full_name}/hooks`);
  assert.is(denied.status, 403);
  assert.is((await env.as(env.bob, 'POST', `/repos/${pub.full_name}/hooks`, hookBody())).status, 403);
  assert.is((await env.as(env.bob, 'DELETE', `/repos/${pub.full_name}/hooks/${created.json.id}`)).status, 403);
  assert.is((await env.as(env.bob, 'GET', `/repos/${priv.full_name}/hooks`)).status, 404);
  assert.is((await env.as(undefined, 'GET', `/repos/${pub.full_name}/hooks`)).status, 401);
  // A site admin may.
  assert.is((await env.as(env.admin, 'GET', `/repos/${pub.full_name}/hooks`)).status, 200);
  // Another repository's hook id is not found here.
  const other = await newRepo(env, env.alice);
  assert.is((await env.as(env.alice, 'GET', `/repos/${other.full_name}/hooks/${created.json.id}`)).status, 404);

  const off = on(noHooks);
  const r = await off(env.alice, 'GET', `/repos/${pub.full_name}/hooks`);
  assert.is(r.status, 403);
  assert.is(r.json.message, 'webhooks disabled by administrator');
  assert.is((await off(env.alice, 'POST', `/user/hooks`, hookBody())).status, 403);
  assert.is((await off(env.admin, 'GET', `/admin/hooks`)).status, 403);
  assert.is(await countHooks({ ownerId: env.alice.id }), 0);
  // The handler did not run: the hook is untouched.
  assert.is((await off(env.alice, 'DELETE', `/repos/${pub.full_name}/hooks/${created.json.id}`)).status, 403);
  assert.is(await countHooks({ id: created.json.id }), 1);
});

test('organization hooks: owners manage them (others 403), ids of other owners are 404', async () => {
  const org = await newOrg(env, env.alice);
  const base = `/orgs/${org.name}/hooks`;
  const created = await env.as(env.alice, 'POST', base, hookBody({ events: ['repository', 'push'], active: true }));
  assert.is(created.status, 201, created.text);
  valid('Hook', created.json);
  assert.equal(created.json.events, ['push', 'repository']);
  assert.is(created.json.active, true);
  const listed = await env.as(env.alice, 'GET', base);
  validList('Hook', listed);
  assert.is(listed.json.length, 1);
  assert.is((await env.as(env.bob, 'GET', base)).status, 403);
  assert.is((await env.as(env.bob, 'POST', base, hookBody())).status, 403);
  assert.is((await env.as(env.bob, 'PATCH', `${base}/${created.json.id}`, { active: false })).status, 403);
  assert.is((await env.as(env.alice, 'GET', `${base}/${created.json.id}`)).status, 200);
  // The organization's hook is not alice's own user hook.
  assert.is((await env.as(env.alice, 'GET', `/user/hooks/${created.json.id}`)).status, 404);
  const edited = await env.as(env.alice, 'PATCH', `${base}/${created.json.id}`, { events: ['release'], branch_filter: '{main,dev}' });
  assert.is(edited.status, 200);
  assert.equal(edited.json.events, ['release']);
  assert.is(edited.json.branch_filter, '{main,dev}');
  assert.is((await env.as(env.alice, 'DELETE', `${base}/${created.json.id}`)).status, 204);
  assert.is((await env.as(env.alice, 'GET', base)).json.length, 0);
});

test('user hooks belong to the caller only', async () => {
  const mine = await env.as(env.carol, 'POST', '/user/hooks', hookBody({ events: ['issues'] }));
  assert.is(mine.status, 201, mine.text);
  valid('Hook', mine.json);
  const listed = await env.as(env.carol, 'GET', '/user/hooks');
  validList('Hook', listed);
  assert.equal(
    listed.json.map((h: { id: number }) => h.id),
    [mine.json.id],
  );
  assert.is((await env.as(env.bob, 'GET', `/user/hooks/${mine.json.id}`)).status, 404);
  assert.is((await env.as(env.bob, 'DELETE', `/user/hooks/${mine.json.id}`)).status, 404);
  assert.is((await env.as(env.bob, 'GET', '/user/hooks')).json.length, 0);
  assert.is((await env.as(undefined, 'GET', '/user/hooks')).status, 401);
  const edited = await env.as(env.carol, 'PATCH', `/user/hooks/${mine.json.id}`, { active: true });
  assert.is(edited.status, 200);
  assert.equal(edited.json.events, ['push']);
  assert.is((await env.as(env.carol, 'DELETE', `/user/hooks/${mine.json.id}`)).status, 204);
});

test('deleting a user or an organization deletes its hooks', async () => {
  const dave = await makeUser(env.db, env.srv.api);
  const hook = await env.as(dave, 'POST', '/user/hooks', hookBody());
  assert.is(hook.status, 201, hook.text);
  const org = await newOrg(env, dave);
  const orgHook = await env.as(dave, 'POST', `/orgs/${org.name}/hooks`, hookBody());
  assert.is(orgHook.status, 201, orgHook.text);
  assert.is((await env.as(dave, 'DELETE', `/orgs/${org.name}`)).status, 204);
  assert.is(await countHooks({ id: orgHook.json.id }), 0);
  assert.is((await env.as(env.admin, 'DELETE', `/admin/users/${dave.name}?purge=true`)).status, 204);
  assert.is(await countHooks({ id: hook.json.id }), 0);
});

test('instance hooks: site admins only; `type` lists system (default), default or all hooks', async () => {
  assert.is((await env.as(env.alice, 'GET', '/admin/hooks')).status, 403);
  assert.is((await env.as(env.alice, 'POST', '/admin/hooks', hookBody())).status, 403);
  const sys = await env.as(env.admin, 'POST', '/admin/hooks', {
    type: 'gitea',
    config: { url: 'https://sys.example.com/', content_type: 'json', is_system_webhook: 'true' },
    active: true,
  });
  assert.is(sys.status, 201, sys.text);
  valid('Hook', sys.json);
  const dflt = await env.as(env.admin, 'POST', '/admin/hooks', hookBody());
  assert.is(dflt.status, 201);
  const ids = async (q: string) => (await env.as(env.admin, 'GET', `/admin/hooks${q}`)).json.map((h: { id: number }) => h.id);
  assert.ok((await ids('')).includes(sys.json.id));
  assert.not.ok((await ids('')).includes(dflt.json.id));
  assert.not.ok((await ids('?type=bogus')).includes(dflt.json.id));
  assert.ok((await ids('?type=default')).includes(dflt.json.id));
  assert.not.ok((await ids('?type=default')).includes(sys.json.id));
  const all = await ids('?type=all');
  assert.ok(all.includes(sys.json.id) && all.includes(dflt.json.id));
  validList('Hook', await env.as(env.admin, 'GET', '/admin/hooks?type=all'));
  assert.is((await env.as(env.admin, 'GET', `/admin/hooks/${sys.json.id}`)).json.type, 'gitea');
  assert.is((await env.as(env.admin, 'PATCH', `/admin/hooks/${sys.json.id}`, { active: false })).json.active, false);
  // A repository hook is not an instance hook.
  const repo = await newRepo(env, env.alice);
  const rh = await env.as(env.alice, 'POST', `/repos/${repo.full_name}/hooks`, hookBody());
  assert.is((await env.as(env.admin, 'GET', `/admin/hooks/${rh.json.id}`)).status, 404);
  assert.is((await env.as(env.admin, 'DELETE', `/admin/hooks/${sys.json.id}`)).status, 204);
  assert.is((await env.as(env.admin, 'DELETE', `/admin/hooks/${dflt.json.id}`)).status, 204);
  assert.is((await env.as(env.admin, 'GET', `/admin/hooks/${sys.json.id}`)).status, 404);
});

test('git hooks: 403 while DISABLE_GIT_HOOKS is on or for non-admins; stored under hooks/<name>.d and never run by pushes', async () => {
  const repo = await newRepo(env, env.alice, { auto_init: true });
  const base = `/repos/${repo.full_name}/hooks/git`;
  const d = await env.as(env.admin, 'GET', base);
  assert.is(d.status, 403);
  assert.is(d.json.message, 'must be allowed to edit Git hooks');
  const G = on(gitHooks);
  assert.is((await G(env.alice, 'GET', base)).status, 403);
  const list = await G(env.admin, 'GET', base);
  assert.is(list.status, 200, list.text);
  validList('GitHook', list);
  assert.equal(
    list.json.map((h: { name: string; is_active: boolean }) => [h.name, h.is_active]),
    [
      ['pre-receive', false],
      ['update', false],
      ['post-receive', false],
    ],
  );
  assert.is((await G(env.admin, 'GET', `${base}/pre-commit`)).status, 404);
  assert.is((await G(env.admin, 'PATCH', `${base}/applypatch-msg`, { content: 'x' })).status, 404);

  const edited = await G(env.admin, 'PATCH', `${base}/pre-receive`, { content: '#!/bin/sh\r\necho refused >&2\r\nexit 1\r\n' });
  assert.is(edited.status, 200, edited.text);
  valid('GitHook', edited.json);
  assert.equal(edited.json, { name: 'pre-receive', is_active: true, content: '#!/bin/sh\necho refused >&2\nexit 1\n' });
  const file = path.join(gitDir(env, env.alice.name, repo.name), 'hooks', 'pre-receive.d', 'pre-receive');
  assert.ok(fs.existsSync(file));
  assert.is(fs.statSync(file).mode & 0o111, 0, 'stored without execute permission');
  assert.is((await G(env.admin, 'GET', `${base}/pre-receive`)).json.is_active, true);

  // The refusing hook does not run: a push still goes through.
  const dir = workDir();
  await mustGit(null, 'clone', '-q', cloneUrl(env.srv.url, env.alice.name, repo.name, [env.alice.name, env.alice.password]), dir);
  await commitFiles(dir, { 'pushed.txt': 'yes\n' }, 'pushed');
  const push = await git(dir, 'push', 'origin', 'HEAD:main');
  assert.ok(push.ok, push.out);
  assert.not.match(push.out, 'refused');
  fs.rmSync(dir, { recursive: true, force: true });

  assert.is((await G(env.admin, 'DELETE', `${base}/pre-receive`)).status, 204);
  assert.is((await G(env.admin, 'GET', `${base}/pre-receive`)).json.is_active, false);
  assert.not.ok(fs.existsSync(file));
  const emptied = await G(env.admin, 'PATCH', `${base}/update`, { content: '' });
  assert.is(emptied.json.is_active, false);
});

test.run();
