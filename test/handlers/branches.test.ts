// Branches, branch protections, tags and tag protections through the API (Forgejo
// routers/api/v1/repo/{branch,tag}.go; forgejo-facts 6.9, 12.3).
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import path from 'node:path';
import { openTestDb, startServer, type TestDb, type TestServer } from '../helpers/server.ts';
import { call } from '../helpers/client.ts';
import { makeRepo, makeUser, type TestUser } from '../helpers/fixtures.ts';
import { mustGit } from '../helpers/git-cli.ts';
import { ApiSchemas, validateResponse } from '../../model/schemas/index.ts';

let db: TestDb;
let srv: TestServer;
let alice: TestUser;
let bob: TestUser; // a write collaborator of `repo`
let carol: TestUser; // an outsider

const valid = (schema: keyof typeof ApiSchemas, value: unknown) => {
  const r = validateResponse(ApiSchemas[schema], value);
  assert.ok(r.ok, JSON.stringify(r));
};
const api = (method: string, p: string, token = alice.token, body?: unknown) => call(srv.api, method, p, { token, body });
const R = () => `/repos/${alice.name}/repo`;
const refOf = (ref: string) =>
  mustGit(
    null,
    `--git-dir=${path.join(srv.config.repoRoot, alice.name.toLowerCase(), 'repo.git')}`,
    'rev-parse',
    '--verify',
    '--quiet',
    ref,
  ).catch(() => null);
const content = (s: string) => Buffer.from(s).toString('base64');

test.before(async () => {
  db = await openTestDb();
  srv = await startServer(db);
  alice = await makeUser(db, srv.api);
  bob = await makeUser(db, srv.api);
  carol = await makeUser(db, srv.api);
  await makeRepo(srv.api, alice, { name: 'repo', auto_init: true });
  await makeRepo(srv.api, alice, { name: 'blank' });
  assert.is((await api('PUT', `${R()}/collaborators/${bob.name}`, alice.token, { permission: 'write' })).status, 204);
});
test.after(async () => {
  await srv.close();
  await db.close();
});

test('forgejo-facts 12.3: an empty repository lists branches as null with X-Total-Count 0', async () => {
  const r = await api('GET', `/repos/${alice.name}/blank/branches`);
  assert.is(r.status, 200);
  assert.is(r.text, 'null\n');
  assert.is(r.headers.get('x-total-count'), '0');
  assert.is((await api('POST', `/repos/${alice.name}/blank/branches`, alice.token, { new_branch_name: 'x' })).status, 404);
});

test('forgejo-facts 6.9: the branch shape, unprotected', async () => {
  const r = await api('GET', `${R()}/branches/main`);
  assert.is(r.status, 200);
  valid('Branch', r.json);
  assert.is(r.json.name, 'main');
  assert.is(r.json.protected, false);
  assert.equal(r.json.status_check_contexts, []);
  assert.is(r.json.user_can_push, true);
  assert.is(r.json.effective_branch_protection_name, '');
  assert.is(r.json.commit.id, await refOf('refs/heads/main'));
  assert.is(r.json.commit.url, `${srv.config.appUrl}${alice.name}/repo/commit/${r.json.commit.id}`);
  assert.is(r.json.commit.author.username, alice.name);
  assert.equal(r.json.commit.verification, {
    verified: false,
    reason: 'gpg.error.not_signed_commit',
    signature: '',
    signer: null,
    payload: '',
  });
  assert.is(r.json.commit.added, null);
  // Outsiders read a public repository's branches but cannot push.
  const asCarol = await api('GET', `${R()}/branches/main`, carol.token);
  assert.is(asCarol.json.user_can_push, false);
  assert.is((await api('GET', `${R()}/branches/nope`)).status, 404);
});

test('create: from the default branch, from a ref, conflicts and missing sources', async () => {
  const main = await refOf('refs/heads/main');
  const a = await api('POST', `${R()}/branches`, alice.token, { new_branch_name: 'dev' });
  assert.is(a.status, 201);
  valid('Branch', a.json);
  assert.is(a.json.commit.id, main);
  assert.is(await refOf('refs/heads/dev'), main);
  assert.is((await api('POST', `${R()}/branches`, alice.token, { new_branch_name: 'dev' })).status, 409);
  assert.is((await api('POST', `${R()}/branches`, alice.token, { new_branch_name: 'x', old_branch_name: 'nope' })).status, 404);
  assert.is((await api('POST', `${R()}/branches`, alice.token, { new_branch_name: 'x', old_ref_name: 'nope' })).status, 404);
  assert.is(await refOf('refs/heads/x'), null);
  const byRef = await api('POST', `${R()}/branches`, alice.token, { new_branch_name: 'from-sha', old_ref_name: main!.slice(0, 10) });
  assert.is(byRef.status, 201);
  assert.is(byRef.json.commit.id, main);
  // Bad names are refused by binding.
  const bad = await api('POST', `${R()}/branches`, alice.token, { new_branch_name: 'a..b' });
  assert.is(bad.status, 422);
  assert.is(bad.json.message, '[BranchName]: GitRefName');
  // Readers cannot create.
  assert.is((await api('POST', `${R()}/branches`, carol.token, { new_branch_name: 'carol' })).status, 403);
  assert.is(await refOf('refs/heads/carol'), null);
});

test('list: pagination headers and order', async () => {
  const r = await api('GET', `${R()}/branches?limit=2&page=1`);
  assert.is(r.status, 200);
  assert.is(r.json.length, 2);
  assert.is(r.headers.get('x-total-count'), '3');
  assert.match(r.headers.get('link') ?? '', 'rel="next"');
  for (const b of r.json) valid('Branch', b);
});

test('rename: moves the branch, refuses taken names and missing branches', async () => {
  const sha = await refOf('refs/heads/dev');
  assert.is((await api('PATCH', `${R()}/branches/dev`, alice.token, { name: 'from-sha' })).status, 422);
  assert.is((await api('PATCH', `${R()}/branches/nope`, alice.token, { name: 'zzz' })).status, 404);
  assert.is((await api('PATCH', `${R()}/branches/dev`, alice.token, { name: 'develop' })).status, 204);
  assert.is(await refOf('refs/heads/dev'), null);
  assert.is(await refOf('refs/heads/develop'), sha);
});

test('delete: the default branch and protected branches cannot be deleted (403), others can', async () => {
  const def = await api('DELETE', `${R()}/branches/main`);
  assert.is(def.status, 403);
  assert.is(def.json.message, 'can not delete default branch');
  assert.ok(await refOf('refs/heads/main'));
  assert.is((await api('POST', `${R()}/branch_protections`, alice.token, { rule_name: 'develop' })).status, 201);
  const prot = await api('DELETE', `${R()}/branches/develop`);
  assert.is(prot.status, 403);
  assert.is(prot.json.message, 'branch protected');
  assert.ok(await refOf('refs/heads/develop'));
  assert.is((await api('DELETE', `${R()}/branch_protections/develop`)).status, 204);
  assert.is((await api('DELETE', `${R()}/branches/develop`)).status, 204);
  assert.is(await refOf('refs/heads/develop'), null);
  assert.is((await api('DELETE', `${R()}/branches/develop`)).status, 404);
});

test('branch protections: CRUD, the BranchProtection shape, admin only', async () => {
  const created = await api('POST', `${R()}/branch_protections`, alice.token, {
    rule_name: 'release/*',
    enable_push: true,
    enable_push_whitelist: true,
    push_whitelist_usernames: [bob.name],
    required_approvals: 2,
    enable_status_check: true,
    status_check_contexts: ['ci'],
    protected_file_patterns: '*.lock',
  });
  assert.is(created.status, 201);
  valid('BranchProtection', created.json);
  assert.is(created.json.branch_name, '');
  assert.is(created.json.rule_name, 'release/*');
  assert.equal(created.json.push_whitelist_usernames, [bob.name]);
  assert.is(created.json.required_approvals, 2);
  assert.is((await api('POST', `${R()}/branch_protections`, alice.token, { rule_name: 'release/*' })).status, 403);
  assert.is((await api('POST', `${R()}/branch_protections`, alice.token, {})).status, 400);
  const unknownUser = await api('POST', `${R()}/branch_protections`, alice.token, {
    rule_name: 'x',
    push_whitelist_usernames: ['no-such-user'],
  });
  assert.is(unknownUser.status, 422);
  const list = await api('GET', `${R()}/branch_protections`);
  assert.equal(
    list.json.map((p: { rule_name: string }) => p.rule_name),
    ['release/*'],
  );
  const edited = await api('PATCH', `${R()}/branch_protections/${encodeURIComponent('release/*')}`, alice.token, {
    required_approvals: 1,
    enable_push: false,
  });
  assert.is(edited.status, 200);
  valid('BranchProtection', edited.json);
  assert.is(edited.json.required_approvals, 1);
  assert.is(edited.json.enable_push, false);
  assert.is(edited.json.enable_push_whitelist, false);
  assert.is((await api('GET', `${R()}/branch_protections/nope`)).status, 404);
  // Collaborators with write access are not repository admins.
  assert.is((await api('GET', `${R()}/branch_protections`, bob.token)).status, 403);
  assert.is((await api('POST', `${R()}/branch_protections`, bob.token, { rule_name: 'bob' })).status, 403);
  assert.equal((await api('GET', `${R()}/branch_protections`)).json.length, 1);
});

test('a protected branch in the branch list: protected, its rule for admins, user_can_push from the rule', async () => {
  assert.is((await api('POST', `${R()}/branches`, alice.token, { new_branch_name: 'release/1' })).status, 201);
  const asAlice = await api('GET', `${R()}/branches/release/1`);
  valid('Branch', asAlice.json);
  assert.is(asAlice.json.protected, true);
  assert.is(asAlice.json.effective_branch_protection_name, 'release/*');
  assert.is(asAlice.json.required_approvals, 1);
  assert.equal(asAlice.json.status_check_contexts, ['ci']);
  assert.is(asAlice.json.user_can_push, false);
  const asBob = await api('GET', `${R()}/branches/release/1`, bob.token);
  assert.is(asBob.json.effective_branch_protection_name, '');
  // Protected branches cannot be written through the contents API either.
  const before = await refOf('refs/heads/release/1');
  const write = await api('POST', `${R()}/contents/new.txt`, bob.token, { branch: 'release/1', content: content('x') });
  assert.is(write.status, 403);
  assert.is(write.json.message, `user cannot commit to repo [user: ${bob.name.toLowerCase()}]`);
  assert.is(await refOf('refs/heads/release/1'), before);
});

test('protected file patterns refuse API writes to those files, even to allowed pushers', async () => {
  await api('PATCH', `${R()}/branch_protections/${encodeURIComponent('release/*')}`, alice.token, { enable_push: true });
  const lock = await api('POST', `${R()}/contents/yarn.lock`, alice.token, { branch: 'release/1', content: content('x') });
  assert.is(lock.status, 403);
  assert.is(lock.json.message, 'path is protected and can not be changed [path: yarn.lock]');
  const ok = await api('POST', `${R()}/contents/ok.txt`, alice.token, { branch: 'release/1', content: content('x') });
  assert.is(ok.status, 201);
});

test('renaming the default branch needs an admin and moves HEAD', async () => {
  assert.is((await api('PATCH', `${R()}/branches/main`, bob.token, { name: 'trunk' })).status, 403);
  assert.is((await api('PATCH', `${R()}/branches/main`, alice.token, { name: 'trunk' })).status, 204);
  const repo = await api('GET', R());
  assert.is(repo.json.default_branch, 'trunk');
  assert.is(
    await mustGit(null, `--git-dir=${path.join(srv.config.repoRoot, alice.name.toLowerCase(), 'repo.git')}`, 'symbolic-ref', 'HEAD'),
    'refs/heads/trunk',
  );
  assert.is((await api('PATCH', `${R()}/branches/release/1`, alice.token, { name: 'rel-1' })).status, 403);
});

test('tags: lightweight and annotated, list, get, delete, conflicts', async () => {
  const head = await refOf('refs/heads/trunk');
  const light = await api('POST', `${R()}/tags`, alice.token, { tag_name: 'light' });
  assert.is(light.status, 201);
  valid('Tag', light.json);
  assert.is(light.json.id, head);
  assert.is(light.json.commit.sha, head);
  assert.is(light.json.zipball_url, `${srv.config.appUrl}${alice.name}/repo/archive/light.zip`);
  const ann = await api('POST', `${R()}/tags`, alice.token, { tag_name: 'v1.0', message: 'first release\n', target: 'trunk' });
  assert.is(ann.status, 201);
  valid('Tag', ann.json);
  assert.is(ann.json.message, 'first release');
  assert.is.not(ann.json.id, head);
  assert.is(ann.json.commit.sha, head);
  assert.is((await api('POST', `${R()}/tags`, alice.token, { tag_name: 'v1.0' })).status, 409);
  assert.is((await api('POST', `${R()}/tags`, alice.token, { tag_name: 'v2', target: 'nope' })).status, 404);
  const list = await api('GET', `${R()}/tags`);
  assert.is(list.headers.get('x-total-count'), '2');
  for (const t of list.json) valid('Tag', t);
  assert.is((await api('GET', `${R()}/tags/nope`)).status, 404);
  assert.is((await api('DELETE', `${R()}/tags/light`)).status, 204);
  assert.is(await refOf('refs/tags/light'), null);
  assert.is((await api('DELETE', `${R()}/tags/light`)).status, 404);
});

test('tag protections: CRUD and 422 for users the rule does not list', async () => {
  const tp = await api('POST', `${R()}/tag_protections`, alice.token, { name_pattern: 'v*', whitelist_usernames: [alice.name] });
  assert.is(tp.status, 201);
  valid('TagProtection', tp.json);
  assert.is(
    (await api('POST', `${R()}/tag_protections`, alice.token, { name_pattern: 'v*', whitelist_usernames: [alice.name] })).status,
    403,
  );
  assert.is((await api('POST', `${R()}/tag_protections`, alice.token, { name_pattern: 'x*' })).status, 400);
  const create = await api('POST', `${R()}/tags`, bob.token, { tag_name: 'v2.0' });
  assert.is(create.status, 422);
  assert.is(create.json.message, 'user not allowed to create protected tag');
  assert.is(await refOf('refs/tags/v2.0'), null);
  const del = await api('DELETE', `${R()}/tags/v1.0`, bob.token);
  assert.is(del.status, 422);
  assert.is(del.json.message, 'user not allowed to delete protected tag');
  assert.ok(await refOf('refs/tags/v1.0'));
  assert.is((await api('POST', `${R()}/tags`, bob.token, { tag_name: 'nightly' })).status, 201);
  const edited = await api('PATCH', `${R()}/tag_protections/${tp.json.id}`, alice.token, { whitelist_usernames: [alice.name, bob.name] });
  assert.is(edited.status, 200);
  valid('TagProtection', edited.json);
  assert.equal(edited.json.whitelist_usernames, [alice.name, bob.name]);
  assert.is((await api('POST', `${R()}/tags`, bob.token, { tag_name: 'v2.0' })).status, 201);
  assert.is((await api('GET', `${R()}/tag_protections/${tp.json.id}`)).status, 200);
  assert.is((await api('GET', `${R()}/tag_protections/999999`)).status, 404);
  assert.is((await api('DELETE', `${R()}/tag_protections/${tp.json.id}`)).status, 204);
  assert.equal((await api('GET', `${R()}/tag_protections`)).json, []);
});

test.run();
